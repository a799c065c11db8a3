// The graph card: what is shown (kind, tag, depth, tag nodes) and the recall graph itself, or a
// placeholder before the first recall.
import type { RefObject } from 'react';
import { GRAPH_DEPTHS, RecallGraph, type GraphDepth, type GraphModel } from '../graph';
import { useThemeChoice } from '../app/use-settings';
import { useExplore } from './explore-store';
import { useGraphThumbnails } from './use-thumbnails';

export interface GraphCardProps {
  model: GraphModel | null;
  /** The query of the recall on screen ('' before any). */
  query: string;
  pending: boolean;
  /** Escape from the graph goes back to the query box. */
  queryRef: RefObject<HTMLInputElement | null>;
  /** No standard hit is close to the query ("zzqx blorp"): say so instead of drawing noise. */
  nothingClose?: boolean;
  /** Chains are asked for: the "Chain steps" control means something. */
  chains?: boolean;
  /** Weaker chains the view left out (./chains.ts). */
  hiddenChains?: number;
}

/** The depth control in words: memory hops from the query (a three-step chain ends at hop 4). */
const DEPTH_WORDS: Record<GraphDepth, string> = { 1: 'direct hits only', 2: 'first step', 3: 'two steps', 4: 'whole chains' };

export function GraphCard({ model, query, pending, queryRef, nothingClose, chains, hiddenChains = 0 }: GraphCardProps) {
  const [theme] = useThemeChoice();
  const { kind, tagFilter, depth, showTags, setKind, setTagFilter, setDepth, setShowTags, open } = useExplore();
  const thumbnails = useGraphThumbnails(model);
  return (
    <section className="explore__graph card" aria-label="Recall graph">
      <div className="explore__graph-head">
        <h2 className="card__title">
          {query ? <>Graph for “{query}”</> : 'Graph'}
          {pending && <span className="count">recalling…</span>}
        </h2>
        <div className="explore__graph-controls">
          <label className="explore__toggle">
            Show
            <select value={kind} onChange={(e) => setKind(e.target.value as typeof kind)} data-testid="explore-kind-filter">
              <option value="all">all kinds</option>
              <option value="standard">standard</option>
              <option value="lateral">lateral</option>
              <option value="associative">associative</option>
            </select>
          </label>
          <label className="explore__toggle">
            Tag
            <input type="text" size={10} value={tagFilter} placeholder="any" onChange={(e) => setTagFilter(e.target.value)} data-testid="explore-tag-filter" />
          </label>
          {chains && (
            <label className="explore__toggle">
              Chains
              <select value={depth} onChange={(e) => setDepth(Number(e.target.value) as GraphDepth)} data-testid="explore-depth">
                {GRAPH_DEPTHS.map((d) => (
                  <option key={d} value={d}>
                    {DEPTH_WORDS[d]}
                  </option>
                ))}
              </select>
            </label>
          )}
          <label className="explore__toggle">
            <input type="checkbox" checked={showTags} onChange={(e) => setShowTags(e.target.checked)} data-testid="explore-show-tags" /> Tags
          </label>
        </div>
      </div>
      {hiddenChains > 0 && !nothingClose && (
        <p className="field__hint explore__graph-note" data-testid="explore-hidden-chains">
          {hiddenChains} weaker {hiddenChains === 1 ? 'chain' : 'chains'} left out (only close steps, and at most half as many as direct hits).
        </p>
      )}
      {model && nothingClose ? (
        <div className="explore__placeholder" data-testid="graph-nothing-close">
          <p>
            <strong>Nothing close to that.</strong> No word matched and nothing is near in meaning, so there is nothing to draw. The far
            ones are with the results, behind “Show the far ones anyway”.
          </p>
        </div>
      ) : model ? (
        <RecallGraph
          model={model}
          thumbnails={thumbnails}
          theme={theme}
          height="min(66vh, 640px)"
          onOpen={open}
          onEscape={() => queryRef.current?.focus()}
          label={`Recall graph for “${query}”. Tab through the memories, Enter opens one, Escape returns to the query.`}
        />
      ) : (
        <div className="explore__placeholder">
          <p>Ask something to see how your memories connect: direct hits, lateral hops across domains, and associative chains.</p>
        </div>
      )}
    </section>
  );
}
