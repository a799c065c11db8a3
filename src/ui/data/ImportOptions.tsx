import { useId } from 'react';
import type { CsvMappingInput } from './data-api';

const FIELDS: { key: keyof CsvMappingInput; label: string }[] = [
  { key: 'text', label: 'Memory text from column' },
  { key: 'tags', label: 'Tags from column' },
  { key: 'createdAt', label: 'Date from column' },
  { key: 'importance', label: 'Importance from column' },
  { key: 'source', label: 'Source from column' },
];

/** Which CSV column feeds which field; the text column defaults to the first one. */
export function CsvMappingFields(props: {
  columns: string[];
  mapping: CsvMappingInput | undefined;
  disabled: boolean;
  onChange: (m: CsvMappingInput) => void;
}) {
  const current: CsvMappingInput = props.mapping ?? { text: props.columns[0] ?? '' };
  return (
    <fieldset className="data__mapping" data-testid="csv-mapping">
      <legend>Columns</legend>
      {FIELDS.map((f) => (
        <label key={f.key} className="field">
          <span className="field__label">{f.label}</span>
          <select
            value={current[f.key] ?? ''}
            disabled={props.disabled}
            onChange={(e) => {
              const next: CsvMappingInput = { ...current };
              if (e.target.value === '' && f.key !== 'text') delete next[f.key];
              else next[f.key] = e.target.value;
              props.onChange(next);
            }}
          >
            {f.key !== 'text' && <option value="">(none)</option>}
            {props.columns.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </label>
      ))}
    </fieldset>
  );
}

export function TextModeField(props: { mode: 'line' | 'paragraph'; disabled: boolean; onChange: (m: 'line' | 'paragraph') => void }) {
  const name = useId();
  return (
    <fieldset className="data__mapping">
      <legend>One memory per</legend>
      {(['line', 'paragraph'] as const).map((m) => (
        <label key={m} className="data__check">
          <input type="radio" name={name} checked={props.mode === m} disabled={props.disabled} onChange={() => props.onChange(m)} />
          {m === 'line' ? 'line' : 'paragraph (separated by a blank line)'}
        </label>
      ))}
    </fieldset>
  );
}
