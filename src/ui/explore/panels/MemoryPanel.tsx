// One memory in detail: its text, tags (with one-click suggestions), metadata, how it was retrieved
// (standard / lateral / associative chain), an explanation slot, and reinforce / suppress feedback.
// A modal dialog by default: focus moves in, stays in (Tab wraps), Escape closes, and focus goes
// back to where it was.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Memory, MemoryId } from '../../../core/types';
import type { RetrievedResult } from './MemoryRetrieval';
import { fixed, percent } from './format';
import { formatDate, isoDateTime } from '../../app/format';
import { titleLine } from '../../../core/text/title';
import { MemoryTags } from './MemoryTags';
import { MemoryRetrieval } from './MemoryRetrieval';
import { MemoryFeedback } from './MemoryFeedback';
import { SourceLink } from '../../components/SourceLink';
import { MemoryPicture } from '../../memories/pictures';
import './panels.css';

export interface MemoryPanelProps {
  memory: Memory;
  /** How this memory was retrieved, when opened from a result list. */
  result?: RetrievedResult;
  /** The query text, shown at the head of an associative chain. */
  queryText?: string;
  /** Short label for another memory in a chain (defaults to its id). */
  labelFor?: (id: MemoryId) => string;
  /** Slot, e.g. a <SpaceExplanationPanel>. */
  explanation?: ReactNode;
  onClose: () => void;
  /** Omit to show tags read-only. */
  onTagsChange?: (tags: string[]) => void | Promise<void>;
  /** Returns the confirmation text (e.g. formatReinforce output); a default one is shown otherwise. */
  onReinforce?: (valence: number) => string | void | Promise<string | void>;
  onSuppress?: (reason: string) => string | void | Promise<string | void>;
  /** false = a side panel that does not trap focus (still closes on Escape). Default true. */
  modal?: boolean;
  /** Texts longer than this many characters start collapsed. Default 600. */
  collapseAfter?: number;
  className?: string;
}

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

function firstLine(text: string, max = 80): string {
  return titleLine(text, max) || '(no text)';
}

export function MemoryPanel(props: MemoryPanelProps) {
  const { memory, result, queryText, labelFor = (id) => id, explanation, onClose, onTagsChange, onReinforce, onSuppress, className } = props;
  const modal = props.modal ?? true;
  const collapseAfter = props.collapseAfter ?? 600;
  const panelRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const textId = useId();

  // Focus in on open, back out on close.
  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeRef.current?.focus();
    return () => {
      if (previous && previous.isConnected) previous.focus();
    };
  }, []);

  // Modal: focus that escapes (a click elsewhere, a programmatic focus) is brought back.
  useEffect(() => {
    if (!modal) return;
    const onFocusIn = (e: FocusEvent) => {
      const panel = panelRef.current;
      if (panel && e.target instanceof Node && !panel.contains(e.target)) closeRef.current?.focus();
    };
    document.addEventListener('focusin', onFocusIn);
    return () => document.removeEventListener('focusin', onFocusIn);
  }, [modal]);

  // Focus can fall out of the panel to the page's body when the element holding it goes away (a
  // removed chip): Escape still closes the panel then.
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      if (e.target !== document.body && e.target !== document.documentElement) return;
      e.preventDefault();
      onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      e.preventDefault();
      onClose();
      return;
    }
    if (e.key !== 'Tab' || !modal || !panelRef.current) return;
    const items = Array.from(panelRef.current.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => !el.hasAttribute('inert'));
    if (items.length === 0) return;
    const first = items[0];
    const last = items[items.length - 1];
    const active = document.activeElement;
    if (e.shiftKey && (active === first || active === panelRef.current)) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && active === last) {
      e.preventDefault();
      first.focus();
    }
  };

  const long = memory.text.length > collapseAfter;
  const [expanded, setExpanded] = useState(false);
  useEffect(() => setExpanded(false), [memory.id]);
  const shownText = long && !expanded ? `${memory.text.slice(0, collapseAfter).trimEnd()}…` : memory.text;
  const mode = result?.mode ?? 'standard';

  const panel = (
    <div
      ref={panelRef}
      className={`mg-x mg-panel ${modal ? 'mg-panel--modal' : 'mg-panel--side'} ${className ?? ''}`}
      role="dialog"
      aria-modal={modal ? 'true' : undefined}
      aria-labelledby={titleId}
      data-testid="memory-panel"
      data-mode={mode}
      onKeyDown={onKeyDown}
    >
      <header className="mg-panel__head">
        <div>
          <h2 id={titleId} className="mg-panel__title">{firstLine(memory.text)}</h2>
          <p className="mg-panel__meta">
            {result && (
              <span className={`mg-badge mg-badge--mode-${mode}`} data-testid="memory-mode">
                {mode}
              </span>
            )}
            <span className={`mg-badge mg-badge--status-${memory.status}`} data-testid="memory-status">
              {memory.status}
            </span>
          </p>
        </div>
        <button ref={closeRef} type="button" className="mg-btn mg-btn--icon" aria-label="Close memory details" data-testid="memory-close" onClick={onClose}>
          ✕
        </button>
      </header>

      <div className="mg-panel__body">
        <MemoryPicture media={memory.media} />
        <section aria-label="Text">
          <div id={textId} className="mg-panel__text" data-testid="memory-text">
            {shownText}
          </div>
          {long && (
            <button
              type="button"
              className="mg-btn mg-btn--link"
              aria-expanded={expanded}
              aria-controls={textId}
              data-testid="memory-text-toggle"
              onClick={() => setExpanded((x) => !x)}
            >
              {expanded ? 'Show less' : `Show all (${memory.text.length} characters)`}
            </button>
          )}
          {memory.embedTruncated && (
            <p className="mg-muted mg-small" data-testid="memory-embed-truncated">
              Only the beginning of this text was used for its meaning vector.
            </p>
          )}
        </section>

        <MemoryTags key={memory.id} tags={memory.tags} suggested={memory.suggestedTags} onTagsChange={onTagsChange} />

        <section aria-label="Details">
          <dl className="mg-dl mg-dl--grid" data-testid="memory-details">
            <dt>Importance</dt>
            <dd data-testid="memory-importance">
              <span className="mg-mini-bar" aria-hidden="true">
                <span style={{ width: percent(Math.min(1, Math.max(0, memory.importance))) }} />
              </span>{' '}
              {fixed(memory.importance)}
            </dd>
            <dt>Source</dt>
            <dd data-testid="memory-source">{memory.source ? <SourceLink source={memory.source} /> : <span className="mg-muted">none</span>}</dd>
            <dt>Happened</dt>
            <dd>
              <time dateTime={isoDateTime(memory.validFrom)} data-testid="memory-happened">{formatDate(memory.validFrom)}</time>
            </dd>
            <dt>Saved</dt>
            <dd>
              <time dateTime={isoDateTime(memory.createdAt)} data-testid="memory-created">{formatDate(memory.createdAt)}</time>
            </dd>
            {memory.updatedAt !== memory.createdAt && (
              <>
                <dt>Updated</dt>
                <dd>
                  <time dateTime={isoDateTime(memory.updatedAt)}>{formatDate(memory.updatedAt)}</time>
                </dd>
              </>
            )}
            <dt>True until</dt>
            <dd data-testid="memory-valid">
              {memory.validTo === null ? 'still true' : <time dateTime={isoDateTime(memory.validTo)}>{formatDate(memory.validTo)}</time>}
            </dd>
          </dl>
          {/* the machine's names for it, one click away */}
          <details className="mg-details mg-small" data-testid="memory-ids">
            <summary>details</summary>
            <dl className="mg-dl mg-dl--grid">
              <dt>Session</dt>
              <dd className="mg-mono">{memory.sessionId}</dd>
              <dt>Id</dt>
              <dd className="mg-mono">{memory.id}</dd>
            </dl>
          </details>
        </section>

        {result && <MemoryRetrieval result={result} queryText={queryText} labelFor={labelFor} />}

        {explanation && <div className="mg-panel__slot">{explanation}</div>}

        {(onReinforce || onSuppress) && (
          <MemoryFeedback key={memory.id} memoryId={memory.id} wasLateral={mode === 'lateral'} onReinforce={onReinforce} onSuppress={onSuppress} />
        )}
      </div>
    </div>
  );

  if (!modal) return panel;
  return (
    <div className="mg-x mg-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      {panel}
    </div>
  );
}
