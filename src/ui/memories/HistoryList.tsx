// A memory's history: every version, newest first, with when it was written, when it was
// replaced and when it was true; any version opens in full.
import { useEffect, useState } from 'react';
import { errorMessage } from '../app/format';
import { formatDay, formatMoment, titleOf } from './MemoryDialog';
import { keepApi, type MemoryVersion } from './keep-api';
import { useKeep } from './keep-store';
import { useChangeCount } from './use-browse';

export function HistoryList({ id, shownId }: { id: string; shownId: string }) {
  const change = useChangeCount();
  const open = useKeep((s) => s.open);
  const [versions, setVersions] = useState<MemoryVersion[] | null>(null);
  const [error, setError] = useState<string | null>(null);

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
            {v.memory.id === shownId ? (
              <span className="field__hint">(shown above)</span>
            ) : (
              <button type="button" className="btn btn--link" onClick={() => open(v.memory.id)} data-testid="history-open">
                Open this version
              </button>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
