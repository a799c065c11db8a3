// Per-space thresholds and weights, and the recent window: a space makes a result relevant above its
// high threshold, signals divergence below its low one, and weighs in the relevance score by its
// weight; temporal spaces are excluded from both and cannot be edited. Values are edited
// as text and checked with the core validator on Save; an invalid config is refused with the
// validator's own message and never reaches onSave.
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { SpaceId } from '../../../core/types';
import {
  DEFAULT_SIMILARITY_CONFIG,
  SPACES,
  SPACE_IDS,
  validateSimilarityConfig,
  type SimilarityConfig,
} from '../../../core/spaces';
import { parseNumberField } from './format';
import { errorMessage } from '../../app/format';
import './panels.css';

export interface SimilaritySettingsProps {
  config: SimilarityConfig;
  /** Called with a validated config. May return a promise; a rejection is shown as an error. */
  onSave: (config: SimilarityConfig) => void | Promise<void>;
  onCancel?: () => void;
  className?: string;
}

type Field = 'high' | 'low' | 'weight';
interface Draft {
  values: Record<SpaceId, Record<Field, string>>;
  hours: string;
}

function toDraft(c: SimilarityConfig): Draft {
  const values = {} as Draft['values'];
  for (const id of SPACE_IDS) {
    values[id] = { high: String(c.highThresholds[id]), low: String(c.lowThresholds[id]), weight: String(c.weights[id]) };
  }
  return { values, hours: String(c.recentWindowHours) };
}

/** Text -> value handed to the validator: numbers as numbers, anything else as typed so the
 *  validator's message names it ("threshold abc must be in [0.0, 1.0]"); empty reads "(empty)". */
function fieldValue(raw: string): number {
  const v = parseNumberField(raw);
  return (v === undefined ? '(empty)' : v) as number;
}

function fromDraft(d: Draft, base: SimilarityConfig): SimilarityConfig {
  const highThresholds = {} as Record<SpaceId, number>;
  const lowThresholds = {} as Record<SpaceId, number>;
  const weights = {} as Record<SpaceId, number>;
  for (const id of SPACE_IDS) {
    highThresholds[id] = fieldValue(d.values[id].high);
    lowThresholds[id] = fieldValue(d.values[id].low);
    weights[id] = fieldValue(d.values[id].weight);
  }
  return { highThresholds, lowThresholds, weights, recentWindowHours: fieldValue(d.hours), excluded: { ...base.excluded } };
}

/** Which input each validator message is about (its "E7 (Code) threshold" / "weight" / "recent
 *  window"), so the message can be shown under that input: key -> messages. */
function problemFields(problems: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const add = (k: string, p: string) => out.set(k, [...(out.get(k) ?? []), p]);
  for (const p of problems) {
    const m = /(E\d+) \([^)]*\) (threshold|weight) (.*) must/.exec(p);
    if (m) add(`${m[1]}:${m[2]}:${m[3]}`, p);
    if (p.startsWith('Invalid recent window')) add('hours', p);
  }
  return out;
}

export function SimilaritySettings(props: SimilaritySettingsProps) {
  const { config, onSave, onCancel, className } = props;
  const [draft, setDraft] = useState<Draft>(() => toDraft(config));
  const [problems, setProblems] = useState<string[]>([]);
  const [notice, setNotice] = useState<string>('');
  const [saving, setSaving] = useState(false);
  const errorsId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const headingId = useId();
  const bad = problemFields(problems);
  // A new config from outside (saved elsewhere, loaded from storage) replaces the form.
  const configKey = JSON.stringify(config);
  const firstKey = useRef(configKey);
  useEffect(() => {
    if (configKey === firstKey.current) return;
    firstKey.current = configKey;
    setDraft(toDraft(config));
    setProblems([]);
  }, [configKey, config]);

  const setField = (id: SpaceId, f: Field, v: string) => {
    setDraft((d) => ({ ...d, values: { ...d.values, [id]: { ...d.values[id], [f]: v } } }));
    setNotice('');
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const next = fromDraft(draft, config);
    const found = validateSimilarityConfig(next);
    setProblems(found);
    if (found.length > 0) {
      setNotice('');
      // the person's eyes go to the first field that needs fixing, with its message beneath it
      requestAnimationFrame(() => formRef.current?.querySelector<HTMLInputElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    setSaving(true);
    try {
      await onSave(next);
      setNotice('Settings saved.');
    } catch (err) {
      setProblems([errorMessage(err)]);
    } finally {
      setSaving(false);
    }
  };

  const reset = () => {
    setDraft(toDraft(DEFAULT_SIMILARITY_CONFIG));
    setProblems([]);
    setNotice('Defaults restored. Save to apply them.');
  };

  /** The validator's messages about this input ([] when it is fine). A threshold message names the
   *  value, not high / low: when both hold the same bad value, both show it. */
  const problemsOf = (id: SpaceId, f: Field): string[] => {
    const raw = draft.values[id][f];
    const shown = String(fieldValue(raw));
    return bad.get(`${id}:${f === 'weight' ? 'weight' : 'threshold'}:${shown}`) ?? [];
  };
  const isBad = (id: SpaceId, f: Field): boolean => problemsOf(id, f).length > 0;

  return (
    <form
      ref={formRef}
      className={`mg-x mg-card mg-settings ${className ?? ''}`}
      data-testid="similarity-settings"
      aria-labelledby={headingId}
      onSubmit={submit}
      noValidate
    >
      <header className="mg-card__head">
        <h3 id={headingId} className="mg-card__title">Similarity settings</h3>
        <p className="mg-muted mg-small">
          A memory is relevant in a space when its similarity is above the high threshold; the current item diverges when
          even its best similarity to recent work is below the low threshold. Weights scale each space in the score.
        </p>
      </header>

      <table className="mg-settings__table">
        <thead>
          <tr>
            <th scope="col">Space</th>
            <th scope="col">High threshold</th>
            <th scope="col">Low threshold</th>
            <th scope="col">Weight</th>
          </tr>
        </thead>
        <tbody>
          {SPACE_IDS.map((id) => {
            const def = SPACES[id];
            const excluded = config.excluded[id];
            return (
              <tr key={id} data-testid={`settings-row-${id}`} data-excluded={excluded ? 'true' : 'false'} className={excluded ? 'mg-settings__row--excluded' : undefined}>
                <th scope="row" title={def.description}>
                  <span className="mg-spaces__id">{id}</span> {def.name}
                  <span className="mg-muted mg-small"> · {def.category}</span>
                  {excluded && <span className="mg-badge mg-badge--muted">excluded{def.temporal ? ' (temporal)' : ''}</span>}
                </th>
                {(['high', 'low', 'weight'] as const).map((f) => (
                  <td key={f} data-label={f === 'weight' ? 'Weight' : f === 'high' ? 'High threshold' : 'Low threshold'}>
                    <input
                      className="mg-input mg-input--num"
                      type="text"
                      inputMode="decimal"
                      aria-label={`${id} ${def.name} ${f === 'weight' ? 'weight' : `${f} threshold`}`}
                      data-testid={`settings-${f}-${id}`}
                      value={draft.values[id][f]}
                      disabled={excluded}
                      aria-invalid={isBad(id, f) || undefined}
                      aria-describedby={isBad(id, f) ? `${errorsId}-${id}-${f}` : undefined}
                      onChange={(e) => setField(id, f, e.target.value)}
                    />
                    {isBad(id, f) && (
                      <span className="mg-field__error" id={`${errorsId}-${id}-${f}`} data-testid={`settings-error-${f}-${id}`}>
                        {problemsOf(id, f).join(' ')}
                      </span>
                    )}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      {SPACE_IDS.some((id) => config.excluded[id]) && (
        <p className="mg-muted mg-small">
          Excluded spaces encode when something happened, not what it is: they are stored but never used for relevance or
          divergence.
        </p>
      )}

      <label className="mg-field">
        <span>Recent window (hours)</span>
        <input
          className="mg-input mg-input--num"
          type="text"
          inputMode="decimal"
          data-testid="settings-recent-hours"
          value={draft.hours}
          aria-invalid={bad.has('hours') || undefined}
          aria-describedby={bad.has('hours') ? `${errorsId}-hours` : undefined}
          onChange={(e) => {
            setDraft((d) => ({ ...d, hours: e.target.value }));
            setNotice('');
          }}
        />
        {bad.has('hours') && (
          <span className="mg-field__error" id={`${errorsId}-hours`} data-testid="settings-error-hours">
            {bad.get('hours')!.join(' ')}
          </span>
        )}
        <span className="mg-muted mg-small">Divergence compares with the current session within this window.</span>
      </label>

      {problems.length > 0 && (
        <div className="mg-errors" role="alert" id={errorsId} data-testid="similarity-errors">
          <p>Not saved: {problems.length === 1 ? 'a value is' : `${problems.length} values are`} invalid.</p>
          <ul>
            {problems.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
      )}

      <div className="mg-actions">
        <button type="submit" className="mg-btn mg-btn--primary" data-testid="settings-save" disabled={saving}>
          Save
        </button>
        <button type="button" className="mg-btn" data-testid="settings-reset" onClick={reset}>
          Reset to defaults
        </button>
        {onCancel && (
          <button type="button" className="mg-btn mg-btn--quiet" onClick={onCancel}>
            Cancel
          </button>
        )}
        <span role="status" className="mg-muted mg-small" data-testid="settings-notice">
          {notice}
        </span>
      </div>
    </form>
  );
}
