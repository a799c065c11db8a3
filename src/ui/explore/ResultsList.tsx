// The recalled memories as a list beside the graph: mode badge (standard / lateral / associative
// with its hop), how well it matches (bar + words, the score behind "details"), and in plain words
// the spaces that made each one relevant (their ids behind "details"). Each row opens the memory.
import type { RecallView } from '../../services';
import type { MemoryId } from '../../core/types';
import { farWords, formatDate, isoDateTime, recallMatch, spaceWords } from '../app/format';
import { MatchBar } from '../components/MatchBar';
import { nothingClose, resultRows, type ResultRow } from './view-model';
import type { EngineDeepReport } from '../../protocol/engine';
import type { EngineIterativeReport } from '../../protocol/engine';
import { DeepSearchNote } from './DeepSearchNote';
import { isRule, RULE_HINT } from '../components/rule-tag';

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
              {isRule(r.tags) && (
                <span className="xr-badge xr-badge--rule" data-testid="explore-result-rule" title={RULE_HINT}>
                  rule
                </span>
              )}
              <MatchBar m={recallMatch(r.score)} />
            </span>
            <span className="xr-item__title">{r.title}</span>
            {r.earlier && (
              <span className="xr-earlier" data-testid="explore-result-earlier">
                Earlier version: an edit replaced it
              </span>
            )}
            {r.found && (
              <span className={`xr-found xr-found--${r.found.by}`} data-testid="explore-result-found" data-found={r.found.by}>
                {r.found.by === 'deep' ? 'Found by deeper search: ' : 'Found by looking again: '}
                {r.found.how}
              </span>
            )}
            <time className="xr-item__when" dateTime={isoDateTime(r.when)} data-testid="explore-result-when">
              {formatDate(r.when)}
            </time>
            {(r.relevantSpaces.length > 0 || r.tags.length > 0) && (
              <span className="xr-item__meta">
                {r.relevantSpaces.length > 0 && <span className="xr-item__spaces">{r.relevantSpaces.map(spaceWords).join(', ')}</span>}
                {r.tags.slice(0, 4).map((t) => (
                  <span key={t} className="xr-tag">
                    #{t}
                  </span>
                ))}
              </span>
            )}
          </button>
          <details className="details xr-item__details">
            <summary>details</summary>
            <span className="xr-item__figures">
              score{' '}
              <span data-testid="explore-result-score" title="hybrid score + 0.2 × how much the spaces single it out">
                {r.score.toFixed(3)}
              </span>
              {r.relevantSpaces.length > 0 && <> · via {r.relevantSpaces.join(', ')}</>}
            </span>
            {r.found && <span className="xr-item__figures" data-testid="explore-result-found-figures">{r.found.figures}</span>}
            {r.read && (
              <span className="xr-item__figures">
                read again by deeper search: reader score {r.read.score.toFixed(2)}
                {r.read.reasons.length ? ` · ${r.read.reasons.join('; ')}` : ''}
              </span>
            )}
          </details>
        </li>
      ))}
    </ol>
  );
}

/** The results card: count, the list, or what to expect before a recall. */
export function ResultsCard({
  views,
  pending,
  onOpen,
  openId,
  deep,
  iterative,
  stored,
}: {
  views: readonly RecallView[] | undefined;
  /** How many memories are stored (undefined while counting): with none, "nothing recalled" says why. */
  stored?: number;
  pending: boolean;
  onOpen: (id: MemoryId) => void;
  openId: MemoryId | null;
  deep?: EngineDeepReport;
  iterative?: EngineIterativeReport;
}) {
  const rows = views ? resultRows(views) : [];
  return (
    <section className="card explore__results" aria-labelledby="xr-h" aria-busy={pending}>
      <h2 id="xr-h" className="card__title">
        Results {views && <span className="count" data-testid="explore-result-count">{views.length}</span>}
      </h2>
      {views && <DeepSearchNote deep={deep} iterative={iterative} added={rows.filter((r) => r.found?.by === 'deep').length} />}
      {views && views.length === 0 && (
        <p className="empty" data-testid="explore-none">
          {stored === 0 ? 'There are no memories to recall yet: write one under Memories, or load the sample collection.' : 'Nothing recalled for that query.'}
        </p>
      )}
      {views && <Rows rows={rows} onOpen={onOpen} openId={openId} />}
      {!views && <p className="empty">Results appear here, each with how it was found.</p>}
    </section>
  );
}

/** The list, or "Nothing close to that" with the far ones one click away. */
function Rows({ rows, onOpen, openId }: { rows: readonly ResultRow[]; onOpen: (id: MemoryId) => void; openId: MemoryId | null }) {
  if (!nothingClose(rows)) return <ResultsList rows={rows} onOpen={onOpen} openId={openId} />;
  return (
    <div className="empty" data-testid="explore-nothing-close">
      <p>Nothing close to that: no word matched and nothing is near in meaning.</p>
      <details className="details">
        <summary>{farWords(rows.length)}</summary>
        <ResultsList rows={rows} onOpen={onOpen} openId={openId} />
      </details>
    </div>
  );
}
