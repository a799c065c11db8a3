// Why one result is relevant, space by space: a result is relevant in a space when its similarity
// is strictly above that space's high threshold, and highly relevant when that holds in at least
// HIGHLY_RELEVANT_MIN_SPACES spaces. Shows each similarity against its threshold, the weighted
// contributions and the total relevance score, plus the hybrid (lexical / semantic) explanation
// when the caller has one.
import { useId, useMemo } from 'react';
import { spaceWords } from '../../app/format';
import type { MatchExplanation, SpaceId } from '../../../core/types';
import {
  DEFAULT_SIMILARITY_CONFIG,
  HIGHLY_RELEVANT_MIN_SPACES,
  SPACES,
  SPACE_IDS,
  relevanceScore,
  relevanceTier,
  type RelevanceResult,
  type RelevanceTier,
  type SimilarityConfig,
  type SpaceSims,
} from '../../../core/spaces';
import { fixed, percent, unit } from './format';
import './panels.css';

export type SpaceRowState = 'active' | 'excluded' | 'absent';

export interface SpaceExplanationPanelProps {
  /** Similarity of the query to this memory per space; a missing key = the memory lacks that space. */
  sims: SpaceSims;
  config?: SimilarityConfig;
  /** Precomputed relevanceScore(sims, config); computed here when omitted. */
  relevance?: RelevanceResult;
  /** The hybrid match explanation of the hit (lexical / semantic contributions, matched terms). */
  hybrid?: MatchExplanation;
  /** Heading text; defaults to "Why this result". */
  title?: string;
  className?: string;
}

const TIER_TEXT: Record<RelevanceTier, string> = {
  none: 'no space above its threshold',
  relevant: 'relevant',
  'highly-relevant': `highly relevant (>= ${HIGHLY_RELEVANT_MIN_SPACES} spaces)`,
};

export function SpaceExplanationPanel(props: SpaceExplanationPanelProps) {
  const { sims, hybrid, title = 'Why this result', className } = props;
  const config = props.config ?? DEFAULT_SIMILARITY_CONFIG;
  const headingId = useId();
  // Non-finite similarities count as 0 in the score; the row says so instead of logging.
  const rel = useMemo(() => props.relevance ?? relevanceScore(sims, config, () => {}), [props.relevance, sims, config]);
  const relevantSet = new Set(rel.relevantSpaces);
  const excludedSet = new Set(rel.excluded);
  const tier = relevanceTier(rel); // the core's two tiers

  return (
    <section
      className={`mg-x mg-card mg-spaces ${className ?? ''}`}
      data-testid="space-explanation"
      data-tier={tier}
      aria-labelledby={headingId}
    >
      <header className="mg-card__head">
        <h3 id={headingId} className="mg-card__title">{title}</h3>
        {/* Plain words first: a result the app returned is never called "not relevant" here; the
            tier, the score and the per-space table are the expert's, behind "details". */}
        <p className="mg-spaces__plain" data-testid="relevance-plain">
          {rel.relevantSpaces.length > 0
            ? `Stands out for: ${rel.relevantSpaces.map(spaceWords).join(', ')}.`
            : 'Found by its overall match; no single aspect stands out.'}
        </p>
      </header>
      <details className="mg-spaces__details">
        <summary>details</summary>
        <p className="mg-spaces__total">
          <span className="mg-muted">Relevance score </span>
          <strong data-testid="relevance-score">{fixed(rel.score, 3)}</strong>
          <span className={`mg-badge mg-badge--${tier}`} data-testid="relevance-tier">{TIER_TEXT[tier]}</span>
        </p>
        <p className="mg-muted mg-small" data-testid="relevance-formula">
          {rel.relevantSpaces.length} of {SPACE_IDS.length - rel.excluded.length - rel.absent.length} active spaces above their
          threshold · score = Σ weight × margin / active weight {fixed(rel.activeWeight, 1)}
        </p>

      <table className="mg-spaces__table">
        <caption className="mg-visually-hidden">Similarity per embedding space</caption>
        <thead>
          <tr>
            <th scope="col">Space</th>
            <th scope="col">Category</th>
            <th scope="col">Similarity <span className="mg-muted">(│ = high threshold)</span></th>
            <th scope="col">Relevant</th>
            <th scope="col">Contribution</th>
          </tr>
        </thead>
        <tbody>
          {SPACE_IDS.map((id) => {
            const state: SpaceRowState = excludedSet.has(id) ? 'excluded' : sims[id] === undefined ? 'absent' : 'active';
            return (
              <SpaceRow
                key={id}
                id={id}
                state={state}
                sim={sims[id]}
                high={config.highThresholds[id]}
                weight={config.weights[id]}
                relevant={relevantSet.has(id)}
                contribution={rel.contributions[id] ?? 0}
              />
            );
          })}
        </tbody>
      </table>
      </details>

      {hybrid && <HybridExplanation why={hybrid} />}
    </section>
  );
}

interface SpaceRowProps {
  id: SpaceId;
  state: SpaceRowState;
  sim: number | undefined;
  high: number;
  weight: number;
  relevant: boolean;
  contribution: number;
}

function SpaceRow({ id, state, sim, high, weight, relevant, contribution }: SpaceRowProps) {
  const def = SPACES[id];
  const label = `${id} ${def.name}`;
  const invalid = sim !== undefined && !Number.isFinite(sim);
  return (
    <tr
      className={`mg-spaces__row mg-spaces__row--${state}${relevant ? ' is-relevant' : ''}`}
      data-testid={`space-row-${id}`}
      data-relevant={relevant ? 'true' : 'false'}
      data-state={state}
    >
      <th scope="row" title={def.description}>
        <span className="mg-spaces__id">{id}</span> {def.name}
      </th>
      <td className="mg-muted">{def.category}</td>
      {state === 'excluded' ? (
        <td colSpan={3} className="mg-muted" data-testid={`space-state-${id}`}>
          excluded (temporal){sim !== undefined && Number.isFinite(sim) ? ` · similarity ${fixed(sim)}` : ''}
        </td>
      ) : state === 'absent' ? (
        <td colSpan={3} className="mg-muted" data-testid={`space-state-${id}`}>
          absent for this memory
        </td>
      ) : (
        <>
          <td>
            <div className="mg-simcell">
              <div
                className="mg-bar"
                role="meter"
                aria-label={`${label} similarity`}
                aria-valuemin={0}
                aria-valuemax={1}
                aria-valuenow={invalid ? 0 : unit(sim ?? 0)}
                aria-valuetext={`${invalid ? 'invalid (counted as 0)' : fixed(sim)}, high threshold ${fixed(high)}`}
              >
                <span className="mg-bar__fill" style={{ width: percent(unit(sim ?? 0)) }} />
                <span className="mg-bar__marker" style={{ left: percent(unit(high)) }} title={`high threshold ${fixed(high)}`} />
              </div>
              <span className="mg-num" data-testid={`space-sim-${id}`}>
                {invalid ? 'invalid' : fixed(sim)}
              </span>
              <span className="mg-muted mg-small" data-testid={`space-high-${id}`}>/ {fixed(high)}</span>
            </div>
          </td>
          <td data-testid={`space-relevant-${id}`}>{relevant ? <strong className="mg-yes">yes</strong> : <span className="mg-muted">no</span>}</td>
          <td className="mg-num" data-testid={`space-contribution-${id}`} title={`weight ${fixed(weight, 1)} × margin`}>
            {contribution > 0 ? `+${fixed(contribution, 3)}` : fixed(0, 3)}
          </td>
        </>
      )}
    </tr>
  );
}

function HybridExplanation({ why }: { why: MatchExplanation }) {
  const total = why.lexical + why.semantic;
  const lexShare = total > 0 ? why.lexical / total : 0;
  return (
    <div className="mg-hybrid" data-testid="hybrid-explanation">
      <h4 className="mg-subtitle">Words and meaning</h4>
      <dl className="mg-dl">
        <dt title="BM25">By words</dt>
        <dd data-testid="hybrid-lexical">
          {fixed(why.lexical, 3)} <span className="mg-muted">(word score {fixed(why.bm25)})</span>
        </dd>
        <dt title="sentence encoder, cosine similarity">By meaning</dt>
        <dd data-testid="hybrid-semantic">
          {fixed(why.semantic, 3)} <span className="mg-muted">(similarity {fixed(why.cosine)})</span>
        </dd>
        {total > 0 && (
          <>
            <dt>Share</dt>
            <dd data-testid="hybrid-share">
              {percent(lexShare)} keywords · {percent(1 - lexShare)} meaning
            </dd>
          </>
        )}
        <dt>Matched terms</dt>
        <dd data-testid="hybrid-terms">
          {why.matchedTerms.length === 0 ? (
            <span className="mg-muted">none</span>
          ) : (
            <ul className="mg-chips" aria-label="Matched terms">
              {why.matchedTerms.map((t) => (
                <li key={t} className="mg-chip mg-chip--term">{t}</li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
    </div>
  );
}
