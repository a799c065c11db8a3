// One memory in detail: its text, tags (with one-click suggestions), metadata, how it was retrieved
// (standard / lateral / associative chain), an explanation slot, and reinforce / suppress feedback.
// A modal dialog by default: focus moves in, stays in (Tab wraps), Escape closes, and focus goes
// back to where it was.
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Memory, MemoryId } from '../../../core/types';
import { normaliseTags } from '../../../core/validate';
import { formatReinforce, validateValence, type RecallResult } from '../../../core/recall';
import { MAX_REASON_LENGTH } from '../../../core/recall/feedback';
import { errorText, fixed, isoDate, parseNumberField, percent, shortDate } from './format';
import './panels.css';

export interface MemoryPanelProps {
  memory: Memory;
  /** How this memory was retrieved, when opened from a result list. */
  result?: RecallResult;
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

const PICTOGRAPH = /^\p{Extended_Pictographic}/u;

/** The seed's reinforce reply with the UI's icon (the core leaves the icon to the UI). */
export function withFeedbackIcon(text: string, valence: number): string {
  if (PICTOGRAPH.test(text)) return text;
  if (valence > 0) return `👍 ${text}`;
  if (valence < 0) return `👎 ${text}`;
  return text;
}

function firstLine(text: string, max = 80): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line || '(no text)';
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

        <TagEditor key={memory.id} tags={memory.tags} suggested={memory.suggestedTags} onTagsChange={onTagsChange} />

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
            <dd data-testid="memory-source">{memory.source || <span className="mg-muted">none</span>}</dd>
            <dt>Created</dt>
            <dd>
              <time dateTime={isoDate(memory.createdAt)} data-testid="memory-created">{shortDate(memory.createdAt)}</time>
            </dd>
            {memory.updatedAt !== memory.createdAt && (
              <>
                <dt>Updated</dt>
                <dd>
                  <time dateTime={isoDate(memory.updatedAt)}>{shortDate(memory.updatedAt)}</time>
                </dd>
              </>
            )}
            <dt>Valid</dt>
            <dd data-testid="memory-valid">
              <time dateTime={isoDate(memory.validFrom)}>{shortDate(memory.validFrom)}</time> –{' '}
              {memory.validTo === null ? 'open-ended' : <time dateTime={isoDate(memory.validTo)}>{shortDate(memory.validTo)}</time>}
            </dd>
            <dt>Session</dt>
            <dd className="mg-mono mg-small">{memory.sessionId}</dd>
            <dt>Id</dt>
            <dd className="mg-mono mg-small">{memory.id}</dd>
          </dl>
        </section>

        {result && <Retrieval result={result} queryText={queryText} labelFor={labelFor} />}

        {explanation && <div className="mg-panel__slot">{explanation}</div>}

        {(onReinforce || onSuppress) && (
          <Feedback key={memory.id} memoryId={memory.id} wasLateral={mode === 'lateral'} onReinforce={onReinforce} onSuppress={onSuppress} />
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

function TagEditor(props: { tags: string[]; suggested: string[]; onTagsChange?: (tags: string[]) => void | Promise<void> }) {
  const { tags, suggested, onTagsChange } = props;
  const [draft, setDraft] = useState('');
  const [error, setError] = useState('');
  const inputId = useId();
  const pending = suggested.filter((t) => !tags.includes(t));

  const change = async (next: string[]) => {
    if (!onTagsChange) return;
    setError('');
    try {
      await onTagsChange(next);
    } catch (e) {
      setError(errorText(e));
    }
  };

  const add = () => {
    let parsed: string[];
    try {
      parsed = normaliseTags(draft);
    } catch (e) {
      setError(errorText(e));
      return;
    }
    const fresh = parsed.filter((t) => !tags.includes(t));
    setDraft('');
    if (fresh.length > 0) void change([...tags, ...fresh]);
  };

  return (
    <section aria-label="Tags" className="mg-tags" data-testid="memory-tags">
      <h3 className="mg-subtitle">Tags</h3>
      {tags.length === 0 ? (
        <p className="mg-muted mg-small">No tags yet.</p>
      ) : (
        <ul className="mg-chips" aria-label="Tags">
          {tags.map((t) => (
            <li key={t} className="mg-chip" data-testid={`memory-tag-${t}`}>
              {t}
              {onTagsChange && (
                <button type="button" className="mg-chip__x" aria-label={`Remove tag ${t}`} onClick={() => void change(tags.filter((x) => x !== t))}>
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {pending.length > 0 && (
        <div className="mg-suggested">
          <span className="mg-muted mg-small">Suggested:</span>
          <ul className="mg-chips" aria-label="Suggested tags">
            {pending.map((t) => (
              <li key={t}>
                {onTagsChange ? (
                  <button
                    type="button"
                    className="mg-chip mg-chip--suggested"
                    aria-label={`Accept suggested tag ${t}`}
                    data-testid={`memory-suggested-${t}`}
                    onClick={() => void change([...tags, t])}
                  >
                    + {t}
                  </button>
                ) : (
                  <span className="mg-chip mg-chip--suggested">{t}</span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {onTagsChange && (
        <div className="mg-inline">
          <label htmlFor={inputId} className="mg-visually-hidden">Add a tag</label>
          <input
            id={inputId}
            className="mg-input"
            placeholder="Add a tag (comma-separated)"
            data-testid="memory-tag-input"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
          />
          <button type="button" className="mg-btn" onClick={add} disabled={draft.trim() === ''}>
            Add tag
          </button>
        </div>
      )}
      {error && (
        <p role="alert" className="mg-field__error">
          {error}
        </p>
      )}
    </section>
  );
}

function Retrieval(props: { result: RecallResult; queryText?: string; labelFor: (id: MemoryId) => string }) {
  const { result, queryText, labelFor } = props;
  return (
    <section aria-label="How it was found" className="mg-retrieval" data-testid="memory-retrieval">
      <h3 className="mg-subtitle">How it was found</h3>
      <dl className="mg-dl mg-dl--grid">
        <dt>Mode</dt>
        <dd>
          <span className={`mg-badge mg-badge--mode-${result.mode}`}>{result.mode}</span>
        </dd>
        <dt>Score</dt>
        <dd data-testid="memory-score">{fixed(result.score, 3)}</dd>
        {result.lateralScore !== undefined && (
          <>
            <dt>Lateral score</dt>
            <dd data-testid="memory-lateral-score">{fixed(result.lateralScore, 3)}</dd>
          </>
        )}
        {result.distance !== undefined && (
          <>
            <dt>Distance to query</dt>
            <dd data-testid="memory-distance">{fixed(result.distance)}</dd>
          </>
        )}
        {result.tagOverlap !== undefined && (
          <>
            <dt>Tag overlap</dt>
            <dd data-testid="memory-tag-overlap">{percent(result.tagOverlap)}</dd>
          </>
        )}
        {result.feedbackFactor !== undefined && (
          <>
            <dt>Feedback factor</dt>
            <dd data-testid="memory-feedback-factor">×{fixed(result.feedbackFactor)}</dd>
          </>
        )}
        {result.group !== undefined && (
          <>
            <dt>Group</dt>
            <dd>{result.group}</dd>
          </>
        )}
      </dl>
      {result.chain && result.chain.length > 0 && (
        <ol className="mg-chain" aria-label="Association chain" data-testid="memory-chain">
          <li className="mg-chain__node mg-chain__node--query">
            <span className="mg-chain__label">{queryText ? <q>{queryText}</q> : 'query'}</span>
          </li>
          {result.chain.map((link, i) => {
            const isSelf = i === result.chain!.length - 1 && link.id === result.id;
            return (
              <li key={`${link.id}-${link.hop}`} className="mg-chain__node" data-testid={`chain-hop-${link.hop}`}>
                <span className="mg-chain__edge" aria-hidden="true">→</span>{' '}
                <span className="mg-chain__label">{isSelf ? <strong>this memory</strong> : labelFor(link.id)}</span>{' '}
                <span className="mg-chain__meta mg-muted mg-small">
                  (hop {link.hop}, cos {fixed(link.cosine)})
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}

function Feedback(props: {
  memoryId: MemoryId;
  wasLateral: boolean;
  onReinforce?: (valence: number) => string | void | Promise<string | void>;
  onSuppress?: (reason: string) => string | void | Promise<string | void>;
}) {
  const { memoryId, wasLateral, onReinforce, onSuppress } = props;
  const [valence, setValence] = useState('50');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  const valenceId = useId();
  const reasonId = useId();

  const run = async (work: () => Promise<string>) => {
    setBusy(true);
    setError('');
    setMessage('');
    try {
      setMessage(await work());
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  // Busy buttons use aria-disabled, not disabled: a focused button that becomes disabled drops
  // focus to <body>, out of the dialog, and Escape would no longer close it.
  const reinforce = () => {
    if (busy) return;
    let v: number;
    try {
      const parsed = parseNumberField(valence);
      v = validateValence(parsed === undefined ? '(empty)' : parsed);
    } catch (e) {
      setMessage('');
      setError(errorText(e));
      return;
    }
    void run(async () => {
      const text = (await onReinforce?.(v)) || formatReinforce(memoryId, v, wasLateral);
      return withFeedbackIcon(text, v);
    });
  };

  const suppress = () => {
    if (busy) return;
    const r = reason.trim();
    if (r.length > MAX_REASON_LENGTH) {
      setMessage('');
      setError(`A suppression reason must be text of at most ${MAX_REASON_LENGTH} characters.`);
      return;
    }
    void run(async () => (await onSuppress?.(r)) || `Suppressed '${memoryId}'${r ? ` (reason: ${r})` : ''}`);
  };

  return (
    <section aria-label="Feedback" className="mg-feedback" data-testid="memory-feedback">
      <h3 className="mg-subtitle">Feedback</h3>
      {onReinforce && (
        <div className="mg-inline">
          <label htmlFor={valenceId}>Valence</label>
          <input
            id={valenceId}
            className="mg-input mg-input--num"
            type="number"
            min={-100}
            max={100}
            step={10}
            value={valence}
            data-testid="memory-valence"
            onChange={(e) => setValence(e.target.value)}
          />
          <button type="button" className="mg-btn mg-btn--primary" aria-disabled={busy} onClick={reinforce} data-testid="memory-reinforce">
            Reinforce
          </button>
        </div>
      )}
      {onSuppress && (
        <div className="mg-inline">
          <label htmlFor={reasonId}>Reason</label>
          <input
            id={reasonId}
            className="mg-input"
            placeholder="optional, e.g. irrelevant"
            maxLength={MAX_REASON_LENGTH + 1}
            value={reason}
            data-testid="memory-suppress-reason"
            onChange={(e) => setReason(e.target.value)}
          />
          <button type="button" className="mg-btn mg-btn--danger" aria-disabled={busy} onClick={suppress} data-testid="memory-suppress">
            Suppress
          </button>
        </div>
      )}
      <p role="status" className="mg-feedback__message" data-testid="memory-feedback-message">
        {message}
      </p>
      {error && (
        <p role="alert" className="mg-field__error" data-testid="memory-feedback-error">
          {error}
        </p>
      )}
    </section>
  );
}
