// One memory in full, opened from any list or search result (its address: `m=<id>`): the text as
// Markdown, when it happened, importance, source, tags, when it was true; whether it is unsure,
// in the trash or an earlier version ("Corrected on <date>", with a link to what replaced it);
// and what a person can do: edit, see its history, mark it unsure or confirm it, delete, restore.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { titleLine } from '../../core/text/title';
import { errorMessage } from '../app/format';
import { SourceLink } from '../components/SourceLink';
import { setUnsavedEdit } from '../components/capture-draft';
import { Markdown } from './Markdown';
import { MemoryPicture } from './pictures';
import { Modal } from './Modal';
import { ConfirmDialog } from './CleanUp';
import { MemoryEditor } from './MemoryEditor';
import { HistoryList } from './HistoryList';
import { useKeep } from './keep-store';
import { keepApi, TRASH_DAYS, type KeptMemory as Memory } from './keep-api';
import { useChangeCount } from './use-browse';
import { deleteWithUndo, discardWithUndo, restoreFromTrash, setStatusOf } from './actions';

/** Longer texts show this many characters as Markdown, the rest on request (as plain text). */
const RENDER_LIMIT = 50_000;

export function formatDay(ms: number): string {
  return new Date(ms).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
}

export function formatMoment(ms: number): string {
  return new Date(ms).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

export function titleOf(text: string, max = 90): string {
  return titleLine(text, max) || '(no text)';
}

/** The memory by id, re-read after every stored change; null while loading; an error when it cannot be read. */
export function useMemory(id: string | null): { memory: Memory | null; error: string | null } {
  const change = useChangeCount();
  const [state, setState] = useState<{ id: string | null; memory: Memory | null; error: string | null }>({ id: null, memory: null, error: null });
  const openedId = useRef<string | null>(null);
  useEffect(() => {
    if (!id) return;
    let live = true;
    // the first read records the opening (decay-aware ranking); re-reads after a change do not,
    // or each one would be a change of its own
    const first = openedId.current !== id;
    openedId.current = id;
    const api = keepApi();
    (first ? api.openMemory(id, { includeDeleted: true }) : api.getMemory(id, { includeDeleted: true }))
      .then(
        (memory) => live && setState({ id, memory, error: null }),
        (e: unknown) => live && setState({ id, memory: null, error: errorMessage(e) }),
      );
    return () => {
      live = false;
    };
  }, [id, change]);
  return state.id === id ? { memory: state.memory, error: state.error } : { memory: null, error: null };
}

export function MemoryDialog() {
  const openId = useKeep((s) => s.openId);
  const open = useKeep((s) => s.open);
  if (!openId) return null;
  return <OpenedMemory key={openId} id={openId} onClose={() => open(null)} />;
}

function OpenedMemory({ id, onClose }: { id: string; onClose(): void }) {
  const titleId = useId();
  const { memory, error } = useMemory(id);
  const editing = useKeep((s) => s.editing);
  const setEditing = useKeep((s) => s.setEditing);
  const open = useKeep((s) => s.open);
  const [showHistory, setShowHistory] = useState(false);
  const [all, setAll] = useState(false);
  // Escape, the backdrop or ✕ over an edit with changes asks first: closing used to drop them unsaid
  const dirty = useRef(false);
  const onDirty = useCallback((d: boolean) => {
    dirty.current = d;
    setUnsavedEdit(d); // a reload or a closed tab asks first too
  }, []);
  useEffect(() => () => setUnsavedEdit(false), []);
  // what Discard does next: close the memory (✕, the backdrop) or go back to its view (Escape)
  const [askDiscard, setAskDiscard] = useState<'close' | 'view' | null>(null);
  const guardedClose = () => (editing && dirty.current ? setAskDiscard('close') : onClose());
  // Escape in the editor steps back one level, to the memory's view, as its Cancel does; in the view it closes
  const guardedEscape = () => {
    if (!editing) onClose();
    else if (dirty.current) setAskDiscard('view');
    else setEditing(false);
  };

  const close = (
    <button type="button" className="btn btn--ghost modal__close" onClick={guardedClose} aria-label="Close memory" data-testid="memory-close">
      ✕
    </button>
  );

  if (!memory) {
    return (
      <Modal labelledBy={titleId} onClose={onClose} testId="memory-view">
        <header className="modal__head">
          <h2 id={titleId}>{error ? 'This memory cannot be opened' : 'Opening…'}</h2>
          {close}
        </header>
        {error && <p className="alert alert--error" role="alert" data-testid="memory-view-error">{error}</p>}
      </Modal>
    );
  }

  const m = memory;
  const trashed = m.deletedAt !== null;
  const earlier = !!m.supersededBy;
  const unsure = m.status === 'quarantined';
  const long = m.text.length > RENDER_LIMIT;

  return (
    <Modal labelledBy={titleId} onClose={guardedClose} onEscape={guardedEscape} testId="memory-view" className="memory-view">
      {askDiscard && (
        <ConfirmDialog
          title="Discard your changes?"
          body="What you changed in this memory is not saved yet. Discarding keeps the memory as it was."
          confirmLabel="Discard changes"
          onCancel={() => setAskDiscard(null)}
          onConfirm={() => {
            const then = askDiscard;
            setAskDiscard(null);
            if (then === 'view') {
              onDirty(false);
              setEditing(false);
            } else onClose();
          }}
        />
      )}
      <header className="modal__head">
        <h2 id={titleId} data-testid="memory-view-title">{titleOf(m.text)}</h2>
        {close}
      </header>
      {earlier && (
        <p className="notice notice--info" data-testid="memory-corrected">
          Corrected on {formatDay(m.supersededAt ?? m.updatedAt)}.{' '}
          <button type="button" className="btn btn--link" onClick={() => open(m.supersededBy!)} data-testid="open-successor">
            See the current version
          </button>
        </p>
      )}
      {trashed && (
        <p className="notice notice--warn" data-testid="memory-trashed">
          In the trash since {formatDay(m.deletedAt!)}. It is removed for good {TRASH_DAYS} days after it was deleted.{' '}
          <button type="button" className="btn btn--secondary btn--small" onClick={() => void restoreFromTrash([m.id])}>
            Restore
          </button>
        </p>
      )}
      {unsure && !trashed && (
        <div className="notice notice--warn" data-testid="memory-unsure">
          <p>Unsure: search and recall leave it out until you confirm it.</p>
          <div className="actions">
            <button type="button" className="btn btn--secondary btn--small" onClick={() => void setStatusOf([m.id], 'active')}>
              Confirm it
            </button>
            <button type="button" className="btn btn--ghost btn--small" onClick={() => void discardWithUndo([m.id]).then((ok) => ok && onClose())}>
              Discard
            </button>
          </div>
        </div>
      )}

      {editing && !trashed && !earlier ? (
        <MemoryEditor memory={m} onDone={() => setEditing(false)} onDirty={onDirty} />
      ) : (
        <>
          <MemoryPicture media={m.media} />
          <div className="memory-view__text" data-testid="memory-view-text">
            <Markdown text={long && !all ? m.text.slice(0, RENDER_LIMIT) : m.text} />
            {long && (
              <button type="button" className="btn btn--link" aria-expanded={all} onClick={() => setAll((x) => !x)}>
                {all ? 'Show less' : `Show all ${m.text.length.toLocaleString('en')} characters`}
              </button>
            )}
          </div>
          <Details m={m} />
          <div className="actions memory-view__actions">
            {!trashed && !earlier && (
              <button type="button" className="btn btn--primary btn--small" onClick={() => setEditing(true)} data-testid="memory-edit">
                Edit
              </button>
            )}
            <button type="button" className="btn btn--secondary btn--small" aria-expanded={showHistory} onClick={() => setShowHistory((x) => !x)} data-testid="memory-history-toggle">
              History
            </button>
            {!trashed && !earlier && !unsure && (
              <button type="button" className="btn btn--secondary btn--small" onClick={() => void setStatusOf([m.id], 'quarantined')} data-testid="memory-mark-unsure">
                Mark unsure
              </button>
            )}
            {!trashed && (
              <button type="button" className="btn btn--danger btn--small" onClick={() => void deleteWithUndo([m.id], `“${titleOf(m.text, 40)}”`).then((ok) => ok && onClose())} data-testid="memory-delete">
                Delete
              </button>
            )}
          </div>
          {showHistory && <HistoryList id={m.supersededBy ?? m.id} shownId={m.id} editable={!trashed} />}
        </>
      )}
    </Modal>
  );
}

function Details({ m }: { m: Memory }) {
  return (
    <dl className="memory-view__details" data-testid="memory-view-details">
      <div>
        <dt>When it happened</dt>
        <dd>
          <time dateTime={new Date(m.createdAt).toISOString()}>{formatMoment(m.createdAt)}</time>
        </dd>
      </div>
      <div>
        <dt>True</dt>
        <dd data-testid="memory-view-valid">
          from {formatDay(m.validFrom)} {m.validTo === null ? '(still true)' : `until ${formatDay(m.validTo)}`}
        </dd>
      </div>
      <div>
        <dt>Importance</dt>
        <dd>{m.importance.toFixed(2)}</dd>
      </div>
      <div>
        <dt>Source</dt>
        <dd data-testid="memory-view-source">{m.source ? <SourceLink source={m.source} /> : 'none'}</dd>
      </div>
      <div>
        <dt>Tags</dt>
        <dd data-testid="memory-view-tags">
          {m.tags.length === 0
            ? 'none'
            : m.tags.map((t) => (
                <span key={t} className="chip chip--small">
                  #{t}
                </span>
              ))}
        </dd>
      </div>
      <div>
        <dt>Last changed</dt>
        <dd>{formatMoment(m.updatedAt)}</dd>
      </div>
    </dl>
  );
}
