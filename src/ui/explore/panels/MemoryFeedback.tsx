// Reinforce (valence checked by the core's validateValence) and suppress (reason at most
// MAX_REASON_LENGTH characters) one memory, with the reply or the error shown in place.
import { useId, useState } from 'react';
import type { MemoryId } from '../../../core/types';
import { formatReinforce, MAX_REASON_LENGTH, validateFeedbackReason, validateValence } from '../../../core/recall';
import { parseNumberField } from './format';
import { errorMessage } from '../../app/format';

const PICTOGRAPH = /^\p{Extended_Pictographic}/u;

/** The reinforce reply (formatReinforce in the core) with the UI's icon: 👍 above 0, 👎 below. */
export function withFeedbackIcon(text: string, valence: number): string {
  if (PICTOGRAPH.test(text)) return text;
  if (valence > 0) return `👍 ${text}`;
  if (valence < 0) return `👎 ${text}`;
  return text;
}

export function MemoryFeedback(props: {
  memoryId: MemoryId;
  wasLateral: boolean;
  onReinforce?: (valence: number) => string | void | Promise<string | void>;
  onSuppress?: (reason: string) => string | void | Promise<string | void>;
}) {
  const { memoryId, wasLateral, onReinforce, onSuppress } = props;
  const [valence, setValence] = useState('50');
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  const [error, setError] = useState('');
  const valenceId = useId();
  const reasonId = useId();

  const run = async (work: () => Promise<string>) => {
    setBusy(true);
    setError('');
    setMessage('');
    try {
      setMessage(await work());
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setBusy(false);
    }
  };

  // Busy buttons use aria-disabled, not disabled: a focused button that becomes disabled drops
  // focus to <body>, out of the dialog, and Escape would no longer close it.
  const reinforce = () => {
    if (busy) return;
    let v: number;
    try {
      const parsed = parseNumberField(valence);
      v = validateValence(parsed === undefined ? '(empty)' : parsed);
    } catch (e) {
      setMessage('');
      setError(errorMessage(e));
      return;
    }
    void run(async () => {
      const text = (await onReinforce?.(v)) || formatReinforce(memoryId, v, wasLateral);
      return withFeedbackIcon(text, v);
    });
  };

  const suppress = () => {
    if (busy) return;
    let r: string;
    try {
      r = validateFeedbackReason(reason) ?? ''; // the core's one reason rule, checked before the round trip
    } catch (e) {
      setMessage('');
      setError(errorMessage(e));
      return;
    }
    void run(async () => (await onSuppress?.(r)) || `Suppressed '${memoryId}'${r ? ` (reason: ${r})` : ''}`);
  };

  return (
    <section aria-label="Feedback" className="mg-feedback" data-testid="memory-feedback">
      <h3 className="mg-subtitle">Feedback</h3>
      {onReinforce && (
        <div className="mg-inline">
          <label htmlFor={valenceId}>Valence</label>
          <input
            id={valenceId}
            className="mg-input mg-input--num"
            type="number"
            min={-100}
            max={100}
            step={10}
            value={valence}
            data-testid="memory-valence"
            onChange={(e) => setValence(e.target.value)}
          />
          <button type="button" className="mg-btn mg-btn--primary" aria-disabled={busy} onClick={reinforce} data-testid="memory-reinforce">
            Reinforce
          </button>
        </div>
      )}
      {onSuppress && (
        <div className="mg-inline">
          <label htmlFor={reasonId}>Reason</label>
          <input
            id={reasonId}
            className="mg-input"
            placeholder="optional, e.g. irrelevant"
            maxLength={MAX_REASON_LENGTH + 1}
            value={reason}
            data-testid="memory-suppress-reason"
            onChange={(e) => setReason(e.target.value)}
          />
          <button type="button" className="mg-btn mg-btn--danger" aria-disabled={busy} onClick={suppress} data-testid="memory-suppress">
            Suppress
          </button>
        </div>
      )}
      <p role="status" className="mg-feedback__message" data-testid="memory-feedback-message">
        {message}
      </p>
      {error && (
        <p role="alert" className="mg-field__error" data-testid="memory-feedback-error">
          {error}
        </p>
      )}
    </section>
  );
}
