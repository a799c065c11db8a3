// Recall profile (a named preset of recall options: PROFILES in the core) and the advanced options
// over it (lateral retrieval, associative hops, beam width...). Every value is checked with the core's
// resolveRecallOptions as it is typed; an invalid value shows the INVALID_OPTION message and is not
// passed on. A field is committed on blur or Enter; an empty field means "profile default".
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import {
  PROFILES,
  PROFILE_NAMES,
  resolveRecallOptions,
  type CognitiveProfile,
  type RecallOptions,
  type RecallOptionsInput,
} from '../../../core/recall';
import { parseNumberField } from './format';
import { DeepRecallFields } from './DeepRecallFields';
import { errorMessage } from '../../app/format';
import './panels.css';

export type AdvancedOptionName =
  | 'topK'
  | 'lateralDistanceThreshold'
  | 'lateralMaxResults'
  | 'lateralMinTagOverlap'
  | 'assocHops'
  | 'beamWidth'
  | 'minCosine'
  | 'hopDecay';

interface FieldDef {
  name: AdvancedOptionName;
  label: string;
  hint: string;
  group: 'results' | 'lateral' | 'associative';
}

export const ADVANCED_FIELDS: readonly FieldDef[] = [
  { name: 'topK', label: 'Results (topK)', hint: 'Standard results, 1 to 1000.', group: 'results' },
  { name: 'lateralDistanceThreshold', label: 'Lateral distance threshold', hint: 'Higher: only very distant memories qualify (0 to 2).', group: 'lateral' },
  { name: 'lateralMaxResults', label: 'Lateral max results', hint: 'Lateral results appended at most (0 to 100).', group: 'lateral' },
  { name: 'lateralMinTagOverlap', label: 'Lateral min tag overlap', hint: 'Higher: a stronger shared context is required (0 to 1).', group: 'lateral' },
  { name: 'assocHops', label: 'Associative hops', hint: '0 = off; each hop follows nearest neighbours (0 to 3).', group: 'associative' },
  { name: 'beamWidth', label: 'Beam width', hint: 'Neighbours followed per memory (1 to 8).', group: 'associative' },
  { name: 'minCosine', label: 'Min cosine', hint: 'Minimum similarity for a step (-1 to 1).', group: 'associative' },
  { name: 'hopDecay', label: 'Hop decay', hint: 'Score kept per hop (0 to 1).', group: 'associative' },
];

export interface RecallOptionsPanelProps {
  /** The explicit options so far (unset = profile default). */
  value: RecallOptionsInput;
  /** A validated change: only the options that changed; `undefined` = back to the profile default. */
  onChange: (partial: RecallOptionsInput) => void;
  /** Start with the advanced options shown. */
  defaultAdvancedOpen?: boolean;
  className?: string;
}

type Drafts = Record<AdvancedOptionName, string>;

function draftsOf(value: RecallOptionsInput): Drafts {
  const d = {} as Drafts;
  for (const f of ADVANCED_FIELDS) {
    const v = value[f.name];
    d[f.name] = v === undefined ? '' : String(v);
  }
  return d;
}

/** The resolved options, or the message of the first invalid one. */
function tryResolve(input: RecallOptionsInput): { ok: true; options: RecallOptions } | { ok: false; message: string } {
  try {
    return { ok: true, options: resolveRecallOptions(input) };
  } catch (e) {
    return { ok: false, message: errorMessage(e) };
  }
}

function without(input: RecallOptionsInput, name: keyof RecallOptionsInput): RecallOptionsInput {
  const copy = { ...input };
  delete copy[name];
  return copy;
}

export function RecallOptionsPanel(props: RecallOptionsPanelProps) {
  const { value, onChange, defaultAdvancedOpen = false, className } = props;
  const profile: CognitiveProfile = value.profile ?? 'BALANCED';
  const baseId = useId();
  // The parent may hand a new object with the same options on every render: follow the options'
  // content, not the object's identity.
  const valueKey = JSON.stringify(value);
  const stable = useMemo(() => JSON.parse(valueKey) as RecallOptionsInput, [valueKey]);
  const [drafts, setDrafts] = useState<Drafts>(() => draftsOf(value));
  const [errors, setErrors] = useState<Partial<Record<AdvancedOptionName, string>>>({});
  // What each field last reported, so a blur after Enter (before the parent re-renders) is not sent twice.
  const sent = useRef(new Map<AdvancedOptionName, string>());
  // An outside change (another panel, a reset) replaces what is shown.
  useEffect(() => {
    setDrafts(draftsOf(stable));
    setErrors({});
    sent.current.clear();
  }, [stable]);

  const resolved = useMemo(() => tryResolve(stable), [stable]);
  const lateralOn = resolved.ok ? resolved.options.lateralMode : PROFILES[profile].lateralMode;

  /** What the field falls back to when left empty (profile default, given the other options). */
  const placeholder = (name: AdvancedOptionName): string => {
    const r = tryResolve(without(value, name));
    return r.ok ? String(r.options[name]) : '';
  };

  const validate = (name: AdvancedOptionName, raw: string): string | undefined => {
    const r = tryResolve({ ...value, [name]: parseNumberField(raw) });
    return r.ok ? undefined : r.message;
  };

  const edit = (name: AdvancedOptionName, raw: string) => {
    setDrafts((d) => ({ ...d, [name]: raw }));
    setErrors((e) => ({ ...e, [name]: validate(name, raw) }));
  };

  const commit = (name: AdvancedOptionName) => {
    const raw = drafts[name];
    const message = validate(name, raw);
    setErrors((e) => ({ ...e, [name]: message }));
    if (message) return;
    const next = parseNumberField(raw) as number | undefined;
    if (next === value[name] || sent.current.get(name) === raw) return;
    sent.current.set(name, raw);
    onChange({ [name]: next });
  };

  const onKey = (name: AdvancedOptionName) => (e: KeyboardEvent<HTMLInputElement | HTMLSelectElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      commit(name);
    }
  };

  const resetAdvanced = () => {
    const partial: RecallOptionsInput = { lateralMode: undefined, expandHops: undefined, multiQuery: undefined, hyde: undefined, deepSearch: undefined, iterative: undefined };
    for (const f of ADVANCED_FIELDS) partial[f.name] = undefined;
    setErrors({});
    onChange(partial);
  };

  const renderField = (f: FieldDef) => {
    const inputId = `${baseId}-${f.name}`;
    const hintId = `${inputId}-hint`;
    const errId = `${inputId}-err`;
    const err = errors[f.name];
    const common = {
      id: inputId,
      'data-testid': `recall-option-${f.name}`,
      'aria-invalid': err ? true : undefined,
      'aria-describedby': err ? `${errId} ${hintId}` : hintId,
      onKeyDown: onKey(f.name),
    };
    return (
      <div className="mg-field" key={f.name}>
        <label htmlFor={inputId}>{f.label}</label>
        {f.name === 'assocHops' ? (
          <select
            {...common}
            className="mg-input"
            value={drafts.assocHops}
            onChange={(e) => {
              const raw = e.target.value;
              edit('assocHops', raw);
              // A select has no typing phase: commit at once.
              const message = validate('assocHops', raw);
              const next = parseNumberField(raw) as number | undefined;
              if (!message && next !== value.assocHops) onChange({ assocHops: next });
            }}
          >
            <option value="">default ({placeholder('assocHops')})</option>
            {[0, 1, 2, 3].map((n) => (
              <option key={n} value={String(n)}>
                {n === 0 ? '0 (off)' : String(n)}
              </option>
            ))}
          </select>
        ) : (
          <input
            {...common}
            className="mg-input mg-input--num"
            type="text"
            inputMode="decimal"
            value={drafts[f.name]}
            placeholder={placeholder(f.name)}
            onChange={(e) => edit(f.name, e.target.value)}
            onBlur={() => commit(f.name)}
          />
        )}
        <span id={hintId} className="mg-muted mg-small">{f.hint}</span>
        {err && (
          <span id={errId} className="mg-field__error" role="alert" data-testid={`recall-option-error-${f.name}`}>
            {err}
          </span>
        )}
      </div>
    );
  };

  const descId = `${baseId}-profile-desc`;
  return (
    <form
      className={`mg-x mg-card mg-recall-options ${className ?? ''}`}
      data-testid="recall-options"
      aria-labelledby={`${baseId}-title`}
      onSubmit={(e) => {
        e.preventDefault();
        for (const f of ADVANCED_FIELDS) if (f.name !== 'assocHops') commit(f.name);
      }}
      noValidate
    >
      <h3 id={`${baseId}-title`} className="mg-card__title">Recall options</h3>
      <div className="mg-field">
        <label htmlFor={`${baseId}-profile`}>Profile</label>
        <select
          id={`${baseId}-profile`}
          className="mg-input"
          data-testid="recall-profile"
          value={profile}
          aria-describedby={descId}
          onChange={(e) => onChange({ profile: e.target.value as CognitiveProfile })}
        >
          {PROFILE_NAMES.map((p) => (
            <option key={p} value={p} title={PROFILES[p].behaviour}>
              {p}
            </option>
          ))}
        </select>
        <p id={descId} className="mg-muted mg-small" data-testid="recall-profile-description">
          {PROFILES[profile].behaviour}
        </p>
      </div>

      <details className="mg-details" open={defaultAdvancedOpen || undefined}>
        <summary>Advanced options</summary>
        {!resolved.ok && (
          <p className="mg-field__error" role="alert" data-testid="recall-options-invalid">
            {resolved.message}
          </p>
        )}
        <fieldset className="mg-fieldset">
          <legend>Results</legend>
          {ADVANCED_FIELDS.filter((f) => f.group === 'results').map(renderField)}
        </fieldset>
        <fieldset className="mg-fieldset">
          <legend>Lateral retrieval</legend>
          <label className="mg-check">
            <input
              type="checkbox"
              data-testid="recall-option-lateralMode"
              checked={lateralOn}
              onChange={(e) => onChange({ lateralMode: e.target.checked })}
            />
            <span>
              Lateral results{' '}
              <span className="mg-muted mg-small">
                ({value.lateralMode === undefined ? `profile default: ${PROFILES[profile].lateralMode ? 'on' : 'off'}` : 'set explicitly'})
              </span>
            </span>
          </label>
          {ADVANCED_FIELDS.filter((f) => f.group === 'lateral').map(renderField)}
        </fieldset>
        <fieldset className="mg-fieldset">
          <legend>Associative hops</legend>
          {ADVANCED_FIELDS.filter((f) => f.group === 'associative').map(renderField)}
        </fieldset>
        <DeepRecallFields value={value} onChange={onChange} />
        <div className="mg-actions">
          <button type="button" className="mg-btn mg-btn--quiet" data-testid="recall-options-reset" onClick={resetAdvanced}>
            Back to profile defaults
          </button>
        </div>
      </details>

      <details className="mg-details mg-small">
        <summary>About the profiles</summary>
        <dl className="mg-dl">
          {PROFILE_NAMES.map((p) => (
            <div key={p} className="mg-dl__row">
              <dt>{p}</dt>
              <dd>{PROFILES[p].behaviour}</dd>
            </div>
          ))}
        </dl>
      </details>
    </form>
  );
}
