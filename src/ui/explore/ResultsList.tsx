// The recalled memories as a list beside the graph: mode badge (standard / lateral / associative
// with its hop), score, and the spaces that made each one relevant. Each row opens the memory.
import type { RecallView } from '../../services';
import type { MemoryId } from '../../core/types';
import { resultRows, type ResultRow } from './view-model';

const MODE_TEXT = { standard: 'standard', lateral: 'lateral', associative: 'associative' } as const;

export function ResultsList({ rows, onOpen, openId }: { rows: readonly ResultRow[]; onOpen: (id: MemoryId) => void; openId: MemoryId | null }) {
  if (rows.length === 0) return null;
  return (
    <ol className="xr-list" aria-label="Recalled memories" data-testid="explore-results">
      {rows.map((r) => (
        <li key={r.id}>
          <button
            type="button"
            className={`xr-item xr-item--${r.mode}`}
            data-testid="explore-result"
            data-mode={r.mode}
            data-hop={r.hop}
            data-memory-id={r.id}
            aria-current={openId === r.id ? 'true' : undefined}
            onClick={() => onOpen(r.id)}
          >
            <span className="xr-item__head">
              <span className={`xr-badge xr-badge--${r.mode}`} data-testid="explore-result-mode">
                {MODE_TEXT[r.mode]}
                {r.hop !== undefined ? ` · hop ${r.hop}` : ''}
              </span>
              <span className="xr-item__score" data-testid="explore-result-score" title="score">
                {r.score.toFixed(3)}
              </span>
            </span>
            <span className="xr-item__title">{r.title}</span>
            {(r.relevantSpaces.length > 0 || r.tags.length > 0) && (
              <span className="xr-item__meta">
                {r.relevantSpaces.length > 0 && <span className="xr-item__spaces">via {r.relevantSpaces.join(', ')}</span>}
                {r.tags.slice(0, 4).map((t) => (
                  <span key={t} className="xr-tag">
                    #{t}
                  </span>
                ))}
              </span>
            )}
          </button>
        </li>
      ))}
    </ol>
  );
}

/** The results card: count, the list, or what to expect before a recall. */
export function ResultsCard({ views, pending, onOpen, openId }: { views: readonly RecallView[] | undefined; pending: boolean; onOpen: (id: MemoryId) => void; openId: MemoryId | null }) {
  return (
    <section className="card explore__results" aria-labelledby="xr-h" aria-busy={pending}>
      <h2 id="xr-h" className="card__title">
        Results {views && <span className="count" data-testid="explore-result-count">{views.length}</span>}
      </h2>
      {views && views.length === 0 && <p className="empty">Nothing recalled for that query.</p>}
      {views && <ResultsList rows={resultRows(views)} onOpen={onOpen} openId={openId} />}
      {!views && <p className="empty">Results appear here, each with how it was found.</p>}
    </section>
  );
}
