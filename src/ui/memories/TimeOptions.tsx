// Time in Explore's options (seed 001): "As it was on …" (asOf: only what was true on that day
// is recalled) and "Favour recently used memories" (decay-aware ranking). Plain words here; the
// figures (the instant, the time constant) sit behind "details".
import { useId } from 'react';
import type { RecallOptionsInput } from '../../core/recall';
import { dayStart, dayValue } from './BrowseFilters';
import './keep.css';

/** Memories not opened, reinforced or cited for this many days count for about a third (e^-1). */
export const DECAY_DAYS = 30;
const DAY = 86_400_000;

/** The last instant of a local day: what became true during that day counts as true on it. */
export function endOfDay(value: string): number | undefined {
  const start = dayStart(value);
  return start === undefined ? undefined : start + DAY - 1;
}

export function TimeOptions({ value, onChange }: { value: RecallOptionsInput; onChange(p: RecallOptionsInput): void }) {
  const id = useId();
  const asOf = typeof value.asOf === 'number' ? value.asOf : undefined;
  const decay = (value.decayTauDays ?? 0) > 0;
  return (
    <fieldset className="time-options" data-testid="time-options">
      <legend>Time</legend>
      <div className="inline-add">
        <label className="field__label" htmlFor={`${id}-asof`}>
          As it was on
        </label>
        <input
          id={`${id}-asof`}
          type="date"
          value={dayValue(asOf)}
          onChange={(e) => onChange({ asOf: endOfDay(e.target.value) })}
          aria-describedby={`${id}-asof-hint`}
          data-testid="recall-as-of"
        />
        {asOf !== undefined && (
          <button type="button" className="btn btn--ghost btn--small" onClick={() => onChange({ asOf: undefined })} data-testid="recall-as-of-clear">
            Back to now
          </button>
        )}
      </div>
      <p id={`${id}-asof-hint`} className="field__hint">
        {asOf === undefined
          ? 'Empty: what is true now. Pick a day to recall only what was true then (a corrected memory shows as it was).'
          : `Recalling only what was true on ${new Date(asOf).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' })}.`}
      </p>
      <label className="field--inline time-options__check">
        <input type="checkbox" checked={decay} onChange={(e) => onChange({ decayTauDays: e.target.checked ? DECAY_DAYS : undefined })} data-testid="recall-decay" />
        Favour recently used memories
      </label>
      <details className="details">
        <summary>details</summary>
        <p>
          As of: {asOf === undefined ? 'none' : new Date(asOf).toISOString()} (validFrom ≤ asOf &lt; validTo). Recently used: score × exp(−days since last opened
          / ({DECAY_DAYS} days × strength)) when on; nothing is ever deleted by it.
        </p>
      </details>
    </fieldset>
  );
}
