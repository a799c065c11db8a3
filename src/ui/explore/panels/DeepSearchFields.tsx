// Deeper search when a recall looks unsure (seed 003) and "keep looking until it's good enough"
// (seed 001's iterative search), in the recall drawer's Deeper search options. Plain words; the
// trigger's threshold, the time limit and the limit per session are behind "details" (each checked
// by the core's resolveDeepSearch as typed, its message shown, committed on blur or Enter).
import { useId, useState } from 'react';
import { resolveDeepSearch, type DeepSearchMode, type DeepSearchOptionsInput } from '../../../core/deep';
import type { RecallOptionsInput } from '../../../core/recall';
import { errorMessage } from '../../app/format';

const MODES: { value: DeepSearchMode; text: string }[] = [
  { value: 'off', text: 'Off' },
  { value: 'shadow', text: 'Watch only: try it and keep a log, change nothing' },
  { value: 'active', text: 'On: add what it finds' },
  { value: 'adaptive', text: 'On, and learn which kinds of question need it' },
];

type Num = 'threshold' | 'timeoutMs' | 'rateLimit' | 'weight';
const NUMS: { name: Num; label: string; hint: string }[] = [
  { name: 'threshold', label: 'Look deeper below this confidence', hint: '0 to 1; 1 = every recall (threshold, default 0.3).' },
  { name: 'timeoutMs', label: 'Time limit (ms)', hint: 'After this the first results are shown (timeoutMs, default 10000).' },
  { name: 'rateLimit', label: 'Times per session', hint: 'Deeper searches per session at most (rateLimit, default 5).' },
  { name: 'weight', label: 'How much its reading counts', hint: "0 to 1: the reader's share of the merged score (weight, default 0.5)." },
];

export function DeepSearchFields({ value, onChange }: { value: RecallOptionsInput; onChange: (partial: RecallOptionsInput) => void }) {
  const id = useId();
  const ds: DeepSearchOptionsInput = value.deepSearch ?? {};
  const [drafts, setDrafts] = useState<Partial<Record<Num, string>>>({});
  const [errors, setErrors] = useState<Partial<Record<Num, string>>>({});
  const set = (patch: DeepSearchOptionsInput) => {
    const next = { ...ds, ...patch };
    for (const k of Object.keys(next) as (keyof DeepSearchOptionsInput)[]) if (next[k] === undefined) delete next[k];
    onChange({ deepSearch: Object.keys(next).length ? next : undefined });
  };
  const commit = (name: Num) => {
    const raw = (drafts[name] ?? '').trim();
    if (raw === (ds[name] === undefined ? '' : String(ds[name]))) return;
    const v = raw === '' ? undefined : Number(raw);
    try {
      resolveDeepSearch({ ...ds, [name]: v });
      setErrors((e) => ({ ...e, [name]: undefined }));
      set({ [name]: v });
    } catch (e) {
      setErrors((x) => ({ ...x, [name]: errorMessage(e) }));
    }
  };
  const iterative = value.iterative === true || (typeof value.iterative === 'object' && value.iterative !== null);
  return (
    <>
      <div className="mg-field">
        <label htmlFor={`${id}-mode`}>Deeper search when unsure</label>
        <select
          id={`${id}-mode`}
          className="mg-input"
          data-testid="recall-option-deepSearch"
          value={ds.mode ?? 'off'}
          onChange={(e) => set({ mode: e.target.value === 'off' ? undefined : (e.target.value as DeepSearchMode) })}
        >
          {MODES.map((m) => (
            <option key={m.value} value={m.value}>
              {m.text}
            </option>
          ))}
        </select>
      </div>
      <label className="mg-check">
        <input type="checkbox" data-testid="recall-option-iterative" checked={iterative} onChange={(e) => onChange({ iterative: e.target.checked ? true : undefined })} />
        <span>Keep looking until it&apos;s good enough (searches again in other words, up to 3 times)</span>
      </label>
      <details className="mg-details mg-small" data-testid="recall-deep-search-details">
        <summary>Deeper search details</summary>
        {NUMS.map((f) => {
          const err = errors[f.name];
          return (
            <div className="mg-field" key={f.name}>
              <label htmlFor={`${id}-${f.name}`}>{f.label}</label>
              <input
                id={`${id}-${f.name}`}
                className="mg-input mg-input--num"
                type="text"
                inputMode="decimal"
                data-testid={`recall-option-deepSearch-${f.name}`}
                aria-invalid={err ? true : undefined}
                aria-describedby={`${id}-${f.name}-hint${err ? ` ${id}-${f.name}-err` : ''}`}
                value={drafts[f.name] ?? (ds[f.name] === undefined ? '' : String(ds[f.name]))}
                onChange={(e) => setDrafts((d) => ({ ...d, [f.name]: e.target.value }))}
                onBlur={() => commit(f.name)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    commit(f.name);
                  }
                }}
              />
              <span id={`${id}-${f.name}-hint`} className="mg-muted mg-small">
                {f.hint}
              </span>
              {err && (
                <span id={`${id}-${f.name}-err`} className="mg-field__error" role="alert" data-testid={`recall-option-error-deepSearch-${f.name}`}>
                  {err}
                </span>
              )}
            </div>
          );
        })}
      </details>
    </>
  );
}
