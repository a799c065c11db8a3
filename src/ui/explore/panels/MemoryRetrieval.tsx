// How a memory was found: mode, score, lateral distance / tag overlap / lateral score, feedback
// factor, group, the associative chain from the query to it, and, for a memory deeper search or a
// later pass of "keep looking" added (issue 11), how that was (the words the results list shows).
import type { MemoryId } from '../../../core/types';
import type { RecallResult } from '../../../core/recall';
import type { PipelineResult } from '../../../core/pipeline';
import { foundWords } from '../../../core/deep';
import { fixed, percent } from './format';

/** A result as the panel reads it: deeper search's and iterative search's records when present. */
export type RetrievedResult = RecallResult & Partial<Pick<PipelineResult, 'deep' | 'iterative'>>;

/** How deeper search or a later pass added this result, in words; null for one the first search found. */
export function addedBy(result: RetrievedResult): string | null {
  if (result.deep && result.deep.via.length > 0) return `Found by deeper search: ${foundWords(result.deep.via)} (reader score ${fixed(result.deep.readerScore)})`;
  if (result.iterative) return `Found when looking again: ${result.iterative.words}`;
  return null;
}

export function MemoryRetrieval(props: { result: RetrievedResult; queryText?: string; labelFor: (id: MemoryId) => string }) {
  const { result, queryText, labelFor } = props;
  const added = addedBy(result);
  return (
    <section aria-label="How it was found" className="mg-retrieval" data-testid="memory-retrieval">
      <h3 className="mg-subtitle">How it was found</h3>
      {added && (
        <p className="mg-small" data-testid="memory-added-by">
          {added}
        </p>
      )}
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
