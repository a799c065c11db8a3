// A memory's history: every version, newest first, with when it was written, when it was
// replaced and when it was true; any version opens in full, and an earlier one can be brought
// back (its text, tags, importance, source and picture become a new current version: an edit like
// any other, so the version it replaces stays in the history too).
import { useEffect, useState } from 'react';
import { useUi } from '../../state/ui-store';
import { errorMessage } from '../app/format';
import { toastError } from '../app/report';
import { formatDay, formatMoment, titleOf } from './MemoryDialog';
import { keepApi, type MemoryPatch, type MemoryVersion } from './keep-api';
import { useKeep } from './keep-store';
import { useChangeCount } from './use-browse';

/** `editable` false (a memory in the trash): versions open, none is brought back. */
export function HistoryList({ id, shownId, editable = true }: { id: string; shownId: string; editable?: boolean }) {
  const change = useChangeCount();
  const open = useKeep((s) => s.open);
  const [versions, setVersions] = useState<MemoryVersion[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pushToast = useUi((s) => s.pushToast);

  async function bringBack(v: MemoryVersion) {
    const m = v.memory;
    // `source` present even when undefined: an earlier version without one removes the current one's
    const patch: MemoryPatch = { text: m.text, tags: m.tags, importance: m.importance, source: m.source, media: m.media ?? [] };
    setBusy(true);
    try {
      await keepApi().updateMemory(id, patch);
      pushToast({ kind: 'success', message: `Brought back the version replaced on ${formatDay(v.supersededAt ?? m.updatedAt)}. The one it replaces is kept in the history.` });
      if (shownId !== id) open(id);
    } catch (e) {
      toastError(e);
    } finally {
      setBusy(false);
    }
  }

  useEffect(() => {
    let live = true;
    keepApi()
      .memoryHistory(id)
      .then(
        (v) => live && (setVersions(v), setError(null)),
        (e: unknown) => live && setError(errorMessage(e)),
      );
    return () => {
      live = false;
    };
  }, [id, change]);

  return (
    <section className="history" aria-label="History" data-testid="memory-history">
      <h3 className="history__title">History</h3>
      {error && <p className="alert alert--error" role="alert">{error}</p>}
      {versions === null && !error && <p className="field__hint">Reading the history…</p>}
      {versions?.length === 1 && <p className="field__hint">Never edited: this is the only version.</p>}
      <ol className="history__list">
        {versions?.map((v) => (
          <li key={v.memory.id} className="history__item" data-testid="history-version" data-current={v.current}>
            <p className="history__when">
              <strong>{v.current ? 'Current version' : `Replaced on ${formatDay(v.supersededAt ?? v.memory.updatedAt)}`}</strong>
              {' · '}written {formatMoment(v.recordedAt)}
              {' · '}true from {formatDay(v.memory.validFrom)}
              {v.memory.validTo === null ? '' : ` until ${formatDay(v.memory.validTo)}`}
            </p>
            <p className="history__text">{titleOf(v.memory.text, 140)}</p>
            <div className="history__actions">
              {v.memory.id === shownId ? (
                <span className="field__hint">(shown above)</span>
              ) : (
                <button type="button" className="btn btn--link" onClick={() => open(v.memory.id)} data-testid="history-open">
                  Open this version
                </button>
              )}
              {!v.current && editable && (
                <button type="button" className="btn btn--secondary btn--small" disabled={busy} onClick={() => void bringBack(v)} data-testid="history-bring-back">
                  Bring back this version
                </button>
              )}
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
