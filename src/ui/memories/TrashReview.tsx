// The Trash (restore, delete the selected ones for good, empty it; memories leave for good 30 days
// after they were deleted) and the
// Review list (unsure memories with their source: keep = confirm, discard = to the trash), one by
// one or many at once.
import { useState, type ReactNode } from 'react';
import { useUi } from '../../state/ui-store';
import { toastError } from '../app/report';
import { MemoryRows } from './MemoryRows';
import { ConfirmDialog } from './CleanUp';
import { discardWithUndo, memoriesWord, restoreFromTrash, setStatusOf } from './actions';
import { keepApi, TRASH_DAYS, type BrowseQuery } from './keep-api';
import { useKeep } from './keep-store';
import { useBrowse } from './use-browse';

const TRASH: BrowseQuery = { status: 'trashed' };
const UNSURE: BrowseQuery = { status: 'quarantined' };

function useSelection() {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  return {
    selected,
    toggle: (id: string) =>
      setSelected((s) => {
        const n = new Set(s);
        if (n.has(id)) n.delete(id);
        else n.add(id);
        return n;
      }),
    set: (ids: string[]) => setSelected(new Set(ids)),
    clear: () => setSelected(new Set()),
  };
}

/** The bar over a list: the selection's actions while something is selected, else "Select all". */
function SelectionBar({ sel, selectAll, selectAllTestId, children }: {
  sel: ReturnType<typeof useSelection>;
  selectAll: () => Promise<string[]>;
  selectAllTestId?: string;
  children: ReactNode;
}) {
  const count = sel.selected.size;
  return count > 0 ? (
    <>
      <strong>{memoriesWord(count)} selected</strong>
      {children}
      <button type="button" className="btn btn--ghost btn--small" onClick={sel.clear}>
        Clear selection
      </button>
    </>
  ) : (
    <button type="button" className="btn btn--ghost btn--small" onClick={() => void selectAll().then(sel.set, toastError)} data-testid={selectAllTestId}>
      Select all
    </button>
  );
}

export function TrashList({ headingId }: { headingId: string }) {
  const browse = useBrowse(TRASH);
  const open = useKeep((s) => s.open);
  const sel = useSelection();
  const [confirming, setConfirming] = useState<'empty' | 'selected' | null>(null);
  const pushToast = useUi((s) => s.pushToast);
  const total = browse.total ?? 0;
  const ids = [...sel.selected];

  async function purgeSelected() {
    try {
      await keepApi().purgeMemories(ids);
      sel.clear();
      pushToast({ kind: 'success', message: `Deleted ${memoriesWord(ids.length)} for good.` });
    } catch (e) {
      toastError(e);
    }
  }

  async function empty() {
    try {
      const n = await keepApi().emptyTrash();
      sel.clear();
      pushToast({ kind: 'success', message: `Emptied the trash: ${memoriesWord(n)} removed for good.` });
    } catch (e) {
      toastError(e);
    }
  }

  return (
    <section className="card browse" aria-labelledby={headingId} data-testid="trash-view">
      <h2 id={headingId} className="card__title">
        Trash <span className="count" data-testid="trash-count">{browse.total === null ? '…' : total.toLocaleString('en')}</span>
      </h2>
      <p className="field__hint">Deleted memories wait here for {TRASH_DAYS} days, then they are removed for good. Until then you can restore them.</p>
      {browse.total === 0 && (
        <p className="empty" data-testid="trash-empty">
          The trash is empty.
        </p>
      )}
      {total > 0 && (
        <div className="browse__bar">
          <SelectionBar sel={sel} selectAll={browse.allIds}>
            <button type="button" className="btn btn--secondary btn--small" onClick={() => void restoreFromTrash(ids).then((ok) => ok && sel.clear())}>
              Restore selected
            </button>
            <button type="button" className="btn btn--danger btn--small" onClick={() => setConfirming('selected')} data-testid="purge-selected">
              Delete selected for good
            </button>
          </SelectionBar>
          <button type="button" className="btn btn--danger btn--small" onClick={() => setConfirming('empty')} data-testid="empty-trash">
            Empty trash
          </button>
        </div>
      )}
      <MemoryRows
        browse={browse}
        selected={sel.selected}
        onToggle={sel.toggle}
        onOpen={(id) => open(id)}
        label="Memories in the trash"
        showStatus={false}
        actions={(m) => (
          <button type="button" className="btn btn--secondary btn--small" onClick={() => void restoreFromTrash([m.id])} aria-label={`Restore: ${m.title.slice(0, 60)}`}>
            Restore
          </button>
        )}
      />
      {confirming === 'empty' && (
        <ConfirmDialog
          title="Empty the trash?"
          body={`${memoriesWord(total)} will be removed for good. This cannot be undone.`}
          confirmLabel="Empty trash"
          onCancel={() => setConfirming(null)}
          onConfirm={async () => {
            setConfirming(null);
            await empty();
          }}
        />
      )}
      {confirming === 'selected' && (
        <ConfirmDialog
          title={`Delete ${memoriesWord(ids.length)} for good?`}
          body={`${ids.length === 1 ? 'It' : 'They'} will be removed for good, with ${ids.length === 1 ? 'its' : 'their'} history and pictures. The rest of the trash stays. This cannot be undone.`}
          confirmLabel="Delete for good"
          onCancel={() => setConfirming(null)}
          onConfirm={async () => {
            setConfirming(null);
            await purgeSelected();
          }}
        />
      )}
    </section>
  );
}

export function ReviewList({ headingId }: { headingId: string }) {
  const browse = useBrowse(UNSURE);
  const open = useKeep((s) => s.open);
  const sel = useSelection();
  const total = browse.total ?? 0;
  const ids = [...sel.selected];

  return (
    <section className="card browse" aria-labelledby={headingId} data-testid="review-view">
      <h2 id={headingId} className="card__title">
        Review unsure memories <span className="count" data-testid="review-count">{browse.total === null ? '…' : total.toLocaleString('en')}</span>
      </h2>
      <p className="field__hint">
        Unsure memories (marked by you, or imported as unsure) are left out of search, recall and the graph. Keep the ones that are right; discard the rest (they go to the trash).
      </p>
      {browse.total === 0 && (
        <p className="empty" data-testid="review-empty">
          Nothing to review.
        </p>
      )}
      {total > 0 && (
        <div className="browse__bar">
          <SelectionBar sel={sel} selectAll={browse.allIds} selectAllTestId="review-select-all">
            <button type="button" className="btn btn--primary btn--small" onClick={() => void setStatusOf(ids, 'active').then((ok) => ok && sel.clear())} data-testid="review-keep-selected">
              Keep selected
            </button>
            <button type="button" className="btn btn--danger btn--small" onClick={() => void discardWithUndo(ids).then((ok) => ok && sel.clear())} data-testid="review-discard-selected">
              Discard selected
            </button>
          </SelectionBar>
        </div>
      )}
      <MemoryRows
        browse={browse}
        selected={sel.selected}
        onToggle={sel.toggle}
        onOpen={(id) => open(id)}
        label="Unsure memories"
        actions={(m) => (
          <>
            <button type="button" className="btn btn--secondary btn--small" onClick={() => void setStatusOf([m.id], 'active')} aria-label={`Keep: ${m.title.slice(0, 60)}`}>
              Keep
            </button>
            <button type="button" className="btn btn--ghost btn--small" onClick={() => void discardWithUndo([m.id])} aria-label={`Discard: ${m.title.slice(0, 60)}`}>
              Discard
            </button>
          </>
        )}
      />
    </section>
  );
}
