import { useEffect, useId, useMemo, useState } from 'react';
import { createSearchController, type SearchResultView } from '../../services';
import { useUi } from '../../state/ui-store';
import { modelProgress } from '../app/boot';
import { useExternal } from '../app/use-store';
import { farWords, highlight, isClose, preview, searchMatch } from '../app/format';
import { MatchBar } from './MatchBar';
import { toastError } from '../app/report';
import { isAborted } from '../../core/errors';
import { useKeep } from '../memories/keep-store';
import { MemoryThumb } from '../memories/pictures';
import { formatDay } from '../memories/MemoryDialog';
import { useEngineWarm } from '../app/use-engine-load';

const DEBOUNCE_MS = 200;

/** Search box with debounced live results: rank, score, and why each one matched. */
export function SearchPanel({ enabled }: { enabled: boolean }) {
  const id = useId();
  const query = useUi((s) => s.query);
  const setQuery = useUi((s) => s.setQuery);
  const model = useExternal(modelProgress);
  const semantic = model.phase === 'ready';
  // the engine's staged start answers by words first: once every stored feature is in, the same
  // query runs again so its answer is the full one (Explore's Recall does the same)
  const engineWarm = useEngineWarm(enabled);
  const controller = useMemo(() => (enabled ? createSearchController() : null), [enabled]);
  const [results, setResults] = useState<SearchResultView[] | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => () => controller?.abort(), [controller]);

  useEffect(() => {
    if (!controller) return;
    const q = query.trim();
    if (!q) {
      controller.abort();
      setResults(null);
      setPending(false);
      return;
    }
    setPending(true);
    const t = setTimeout(() => {
      controller.run(q, { topK: 20, semantic }).then(
        (out) => {
          if (out.status !== 'fresh') return;
          setResults(out.results);
          setPending(false);
        },
        (e: unknown) => {
          setPending(false);
          if (isAborted(e)) return;
          toastError(e);
        },
      );
    }, DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [controller, query, semantic, engineWarm]);

  // "zzqx blorp" still returns the least-far memories; when not one of them is close, say so
  // rather than list noise (the rule is isClose in app/format.ts).
  const nothingClose = !!results && results.length > 0 && !results.some((r) => isClose(r.hit.why));
  const list = results && results.length > 0 && (
    <ol className="results" data-testid="search-results" aria-label={`${results.length} results`}>
      {results.map((r, i) => (
        <ResultItem key={r.memory.id} r={r} rank={i + 1} />
      ))}
    </ol>
  );

  return (
    <section className="card search" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`} className="card__title">
        Search by meaning
      </h2>
      <div className="search__box" role="search">
        <label className="sr-only" htmlFor={`${id}-q`}>
          Search memories
        </label>
        <span className="search__icon" aria-hidden="true">
          ⌕
        </span>
        <input
          id={`${id}-q`}
          type="search"
          data-testid="search-input"
          placeholder={enabled ? 'Ask in your own words: “fixing my automobile”' : 'Opening your memories…'}
          value={query}
          disabled={!enabled}
          onChange={(e) => setQuery(e.target.value)}
          autoComplete="off"
        />
      </div>
      {!semantic && enabled && query.trim() && (
        <p className="field__hint" data-testid="search-keywords-only">
          {model.phase === 'error' ? 'The meaning model is not available: matching by words only.' : 'The model is still loading: matching by words only for now.'}
        </p>
      )}
      <div aria-live="polite" aria-busy={pending}>
        {results && results.length === 0 && !pending && (
          <p className="empty" data-testid="search-empty">
            Nothing matched “{query.trim()}”.
          </p>
        )}
        {nothingClose && !pending && (
          <div className="empty" data-testid="search-nothing-close">
            <p>Nothing close to that: no word matched and nothing is near in meaning.</p>
            <details className="details">
              <summary>{farWords(results.length)}</summary>
              {list}
            </details>
          </div>
        )}
        {!nothingClose && list}
      </div>
    </section>
  );
}

/** "Earlier text of a memory you changed on November 25, 2026." */
export function earlierWords(supersededAt: number | undefined): string {
  return `Earlier text of a memory you changed${supersededAt !== undefined ? ` on ${formatDay(supersededAt)}` : ''}.`;
}

function ResultItem({ r, rank }: { r: SearchResultView; rank: number }) {
  const { why, score } = r.hit;
  const total = Math.max(why.lexical + why.semantic, 1e-9);
  const p = preview(r.memory.text, 400);
  const m = searchMatch(score);
  const open = useKeep((s) => s.open);
  return (
    <li className="result" data-testid="search-result" data-memory-id={r.memory.id}>
      <div className="result__head">
        <span className="result__rank" aria-label={`Rank ${rank}`}>
          {rank}
        </span>
        <p className="result__text">
          <MemoryThumb media={r.memory.media} />
          {highlight(p.text, why.matchedTerms).map((s, i) => (s.hit ? <mark key={i}>{s.text}</mark> : <span key={i}>{s.text}</span>))}
        </p>
        <MatchBar m={m} />
        <button
          type="button"
          className="btn btn--secondary btn--small result__open"
          onClick={() => open(r.memory.id)}
          aria-label={`Open memory: ${preview(r.memory.text, 40).text}`}
          data-testid="result-open"
        >
          Open
        </button>
      </div>
      {/* an earlier version matches too (the memory's history is searched): said, so it is not taken for a second memory */}
      {r.memory.supersededBy !== undefined && (
        <p className="result__earlier" data-testid="result-earlier">
          {earlierWords(r.memory.supersededAt)}
        </p>
      )}
      <div className="why" aria-label={r.explanation}>
        <div className="why__split">
          <span className="why__key">
            <span className="swatch swatch--lex" aria-hidden="true" /> by words
          </span>
          <div className="why__bar" aria-hidden="true">
            <span className="why__lex" style={{ flexGrow: why.lexical / total }} />
            <span className="why__sem" style={{ flexGrow: why.semantic / total }} />
          </div>
          <span className="why__key">
            <span className="swatch swatch--sem" aria-hidden="true" /> by meaning
          </span>
        </div>
        {why.matchedTerms.length > 0 && (
          <p className="why__terms">
            Matched: {why.matchedTerms.map((t) => <mark key={t}>{t}</mark>)}
          </p>
        )}
        <details className="details">
          <summary>details</summary>
          <dl className="why__nums">
            <div>
              <dt title="0.5 × words + 0.5 × meaning, each scaled so the best hit is 1">Score (fused)</dt>
              <dd data-testid="result-score">{score.toFixed(3)}</dd>
            </div>
            <div>
              <dt>from words</dt>
              <dd data-testid="result-lexical">{why.lexical.toFixed(3)}</dd>
            </div>
            <div>
              <dt>from meaning</dt>
              <dd data-testid="result-semantic">{why.semantic.toFixed(3)}</dd>
            </div>
            <div>
              <dt>word score (BM25)</dt>
              <dd>{why.bm25.toFixed(2)}</dd>
            </div>
            <div>
              <dt>meaning similarity (cosine)</dt>
              <dd>{why.cosine.toFixed(2)}</dd>
            </div>
          </dl>
        </details>
      </div>
    </li>
  );
}
