// The Memories view's full list: count, sort and filters, tags with counts, the virtualised rows,
// and what to do with the selected ones (tag, mark unsure, export, delete).
import { useId, useState } from 'react';
import { normaliseTags } from '../../core/validate';
import { errorMessage } from '../app/format';
import { toastError } from '../app/report';
import { BrowseFilters, TagChips, hasQuery } from './BrowseFilters';
import { MemoryRows } from './MemoryRows';
import { useKeep } from './keep-store';
import { useBrowse, useCount, useTagCounts } from './use-browse';
import { go } from '../shell/navigate';
import { addTagsTo, deleteWithUndo, exportSelected, memoriesWord, setStatusOf } from './actions';

export function MemoryBrowser() {
  const id = useId();
  const filters = useKeep((s) => s.filters);
  const selected = useKeep((s) => s.selected);
  const toggle = useKeep((s) => s.toggleSelected);
  const open = useKeep((s) => s.open);
  const selectMany = useKeep((s) => s.selectMany);
  const browse = useBrowse(filters);
  const tags = useTagCounts(filters);
  // an empty list after a delete all: say where the memories went
  const trashed = useCount({ status: 'trashed' });
  const [selecting, setSelecting] = useState(false);

  async function selectAll() {
    setSelecting(true);
    try {
      selectMany(await browse.allIds());
    } catch (e) {
      toastError(e);
    } finally {
      setSelecting(false);
    }
  }

  return (
    <section className="card browse" aria-labelledby={`${id}-h`} data-testid="memory-browser">
      <h2 id={`${id}-h`} className="card__title">
        Memories{' '}
        <span className="count" data-testid="memory-count">
          {browse.total === null ? '…' : browse.total.toLocaleString('en')}
        </span>
        {hasQuery(filters) && <span className="field__hint"> matching the filters</span>}
      </h2>
      <BrowseFilters tags={tags} />
      <TagChips tags={tags} />
      {browse.error && (
        <p className="alert alert--error" role="alert">
          Could not read the list: {browse.error}
        </p>
      )}
      {browse.total === 0 && (
        <p className="empty" data-testid="memories-empty">
          {hasQuery(filters) ? (
            'No memory matches these filters.'
          ) : trashed ? (
            <>
              Nothing here: {trashed === 1 ? '1 memory is' : `${memoriesWord(trashed)} are`} in the trash, where you can restore{' '}
              {trashed === 1 ? 'it' : 'them'} for 30 days.{' '}
              <button type="button" className="btn btn--link" onClick={() => go('trash')} data-testid="memories-empty-trash">
                Open the trash
              </button>
            </>
          ) : (
            'Nothing here yet. Write your first memory above; it never leaves this device.'
          )}
        </p>
      )}
      {selected.size > 0 ? (
        <BulkBar />
      ) : (
        (browse.total ?? 0) > 0 && (
          <div className="browse__bar">
            <button type="button" className="btn btn--ghost btn--small" onClick={() => void selectAll()} disabled={selecting} data-testid="select-all">
              {selecting ? 'Selecting…' : `Select all ${memoriesWord(browse.total ?? 0)}`}
            </button>
          </div>
        )
      )}
      <MemoryRows browse={browse} selected={selected} onToggle={toggle} onOpen={(m) => open(m)} label="All memories" />
    </section>
  );
}

function BulkBar() {
  const id = useId();
  const selected = useKeep((s) => s.selected);
  const clear = useKeep((s) => s.clearSelection);
  const [tag, setTag] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const ids = [...selected];

  async function run(job: () => Promise<boolean>, clearAfter = true) {
    setBusy(true);
    try {
      if ((await job()) && clearAfter) clear();
    } finally {
      setBusy(false);
    }
  }

  function tagThem() {
    setError('');
    let t: string[];
    try {
      t = normaliseTags(tag);
    } catch (e) {
      setError(errorMessage(e));
      return;
    }
    if (t.length === 0) {
      setError('Type a tag first.');
      return;
    }
    void run(async () => {
      const ok = await addTagsTo(ids, t);
      if (ok) setTag('');
      return ok;
    }, false);
  }

  return (
    <div className="bulk" role="region" aria-label="Selected memories" data-testid="bulk-bar">
      <strong data-testid="bulk-count">{memoriesWord(ids.length)} selected</strong>
      <div className="inline-add">
        <label className="sr-only" htmlFor={`${id}-t`}>
          Tag to add to the selected memories
        </label>
        <input id={`${id}-t`} value={tag} onChange={(e) => setTag(e.target.value)} placeholder="tag" onKeyDown={(e) => e.key === 'Enter' && tagThem()} data-testid="bulk-tag-input" />
        <button type="button" className="btn btn--secondary btn--small" onClick={tagThem} disabled={busy}>
          Add tag
        </button>
      </div>
      <button type="button" className="btn btn--secondary btn--small" disabled={busy} onClick={() => void run(() => setStatusOf(ids, 'quarantined'))}>
        Mark unsure
      </button>
      <button type="button" className="btn btn--secondary btn--small" disabled={busy} onClick={() => void run(() => exportSelected(ids), false)}>
        Export
      </button>
      <button type="button" className="btn btn--danger btn--small" disabled={busy} onClick={() => void run(() => deleteWithUndo(ids))}>
        Delete
      </button>
      <button type="button" className="btn btn--ghost btn--small" onClick={clear}>
        Clear selection
      </button>
      {error && (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
