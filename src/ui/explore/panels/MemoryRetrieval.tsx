// How a memory was found: mode, score, lateral distance / tag overlap / lateral score, feedback
// factor, group, and the associative chain from the query to it.
import type { MemoryId } from '../../../core/types';
import type { RecallResult } from '../../../core/recall';
import { fixed, percent } from './format';

export function MemoryRetrieval(props: { result: RecallResult; queryText?: string; labelFor: (id: MemoryId) => string }) {
  const { result, queryText, labelFor } = props;
  return (
    <section aria-label="How it was found" className="mg-retrieval" data-testid="memory-retrieval">
      <h3 className="mg-subtitle">How it was found</h3>
      <dl className="mg-dl mg-dl--grid">
        <dt>Mode</dt>
        <dd>
          <span className={`mg-badge mg-badge--mode-${result.mode}`}>{result.mode}</span>
        </dd>
        <dt>Score</dt>
        <dd data-testid="memory-score">{fixed(result.score, 3)}</dd>
        {result.lateralScore !== undefined && (
          <>
            <dt>Lateral score</dt>
            <dd data-testid="memory-lateral-score">{fixed(result.lateralScore, 3)}</dd>
          </>
        )}
        {result.distance !== undefined && (
          <>
            <dt>Distance to query</dt>
            <dd data-testid="memory-distance">{fixed(result.distance)}</dd>
          </>
        )}
        {result.tagOverlap !== undefined && (
          <>
            <dt>Tag overlap</dt>
            <dd data-testid="memory-tag-overlap">{percent(result.tagOverlap)}</dd>
          </>
        )}
        {result.feedbackFactor !== undefined && (
          <>
            <dt>Feedback factor</dt>
            <dd data-testid="memory-feedback-factor">×{fixed(result.feedbackFactor)}</dd>
          </>
        )}
        {result.group !== undefined && (
          <>
            <dt>Group</dt>
            <dd>{result.group}</dd>
          </>
        )}
      </dl>
      {result.chain && result.chain.length > 0 && (
        <ol className="mg-chain" aria-label="Association chain" data-testid="memory-chain">
          <li className="mg-chain__node mg-chain__node--query">
            <span className="mg-chain__label">{queryText ? <q>{queryText}</q> : 'query'}</span>
          </li>
          {result.chain.map((link, i) => {
            const isSelf = i === result.chain!.length - 1 && link.id === result.id;
            return (
              <li key={`${link.id}-${link.hop}`} className="mg-chain__node" data-testid={`chain-hop-${link.hop}`}>
                <span className="mg-chain__edge" aria-hidden="true">→</span>{' '}
                <span className="mg-chain__label">{isSelf ? <strong>this memory</strong> : labelFor(link.id)}</span>{' '}
                <span className="mg-chain__meta mg-muted mg-small">
                  (hop {link.hop}, cos {fixed(link.cosine)})
                </span>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
