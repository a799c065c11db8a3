// The deeper-search options of the recall drawer (issue 11, seed 001): one hop over the people,
// places and things the results mention (expandHops), reworded searches (multiQuery) and a
// sketched answer from the person's own language model (hyde). Plain words; the option names
// are in the details.
import { useId } from 'react';
import type { RecallOptionsInput } from '../../../core/recall';
import { DeepSearchFields } from './DeepSearchFields';

export interface DeepRecallFieldsProps {
  value: RecallOptionsInput;
  onChange: (partial: RecallOptionsInput) => void;
}

const REWORDINGS = [1, 2, 3, 4] as const;

export function DeepRecallFields({ value, onChange }: DeepRecallFieldsProps) {
  const id = useId();
  const multi = value.multiQuery ?? 1;
  return (
    <fieldset className="mg-fieldset" data-testid="recall-deep-options">
      <legend>Deeper search</legend>
      <label className="mg-check">
        <input
          type="checkbox"
          data-testid="recall-option-expandHops"
          checked={value.expandHops === 1}
          onChange={(e) => onChange({ expandHops: e.target.checked ? 1 : undefined })}
        />
        <span>Also bring in memories about the same people, places and things</span>
      </label>
      <div className="mg-field">
        <label htmlFor={`${id}-multi`}>Reworded searches</label>
        <select
          id={`${id}-multi`}
          className="mg-input"
          data-testid="recall-option-multiQuery"
          value={String(REWORDINGS.includes(multi as 1) ? multi : 1)}
          onChange={(e) => {
            const n = Number(e.target.value);
            onChange({ multiQuery: n > 1 ? n : undefined });
          }}
        >
          <option value="1">Off</option>
          {REWORDINGS.slice(1).map((n) => (
            <option key={n} value={n}>
              {n - 1} other wording{n > 2 ? 's' : ''}
            </option>
          ))}
        </select>
      </div>
      <label className="mg-check">
        <input
          type="checkbox"
          data-testid="recall-option-hyde"
          checked={value.hyde === true}
          onChange={(e) => onChange({ hyde: e.target.checked ? true : undefined })}
        />
        <span>
          Sketch an answer with my language model and search with it{' '}
          <span className="mg-muted mg-small">(needs a language model on this computer, in Settings; without one it does nothing)</span>
        </span>
      </label>
      <DeepSearchFields value={value} onChange={onChange} />
      <details className="mg-details mg-small">
        <summary>Details</summary>
        <p className="mg-muted">
          expandHops 1: the memories sharing a named entity with the best results are added as one more candidate list. multiQuery N: up to
          N − 1 rewordings (from the built-in word lists and the best results, or from your language model), each searched by words and
          meaning, fused by reciprocal rank. hyde: the model writes a short hypothetical answer; memories close to it in meaning are fused in. Deeper search (seed 003): when the first results look unsure (their confidence is below the threshold), the
          memories said near them, sharing their names or in their group are read again and the best added; watch only logs it. Keep looking
          (searchIterative): the results are graded; while none is good enough, it searches again in other words or one hop wider.
        </p>
      </details>
    </fieldset>
  );
}
