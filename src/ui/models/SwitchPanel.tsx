import type { EncoderSwitchStatus } from '../../services';

const WORDS: Record<EncoderSwitchStatus['state'], string> = {
  idle: '',
  running: 'Preparing your memories',
  finishing: 'Almost done',
  paused: 'Paused',
  failed: 'Stopped',
};

/** A switch of encoders under way: how far it is, and pause / resume / cancel. */
export function SwitchPanel(props: {
  status: EncoderSwitchStatus;
  toName: string;
  fromName: string;
  onPause(): void;
  onResume(): void;
  onCancel(): void;
}) {
  const { status: s } = props;
  const pct = s.total > 0 ? Math.round((s.done / s.total) * 100) : 0;
  return (
    <div className="models__switch" data-testid="switch-status" data-state={s.state} role="status" aria-live="polite">
      <p className="models__switch-title">
        {WORDS[s.state]} for <strong>{props.toName}</strong>
        {s.total > 0 && (
          <>
            : <span data-testid="switch-done">{s.done.toLocaleString('en')}</span> of{' '}
            <span data-testid="switch-total">{s.total.toLocaleString('en')}</span>
          </>
        )}
      </p>
      <progress className="models__bar" max={100} value={pct} aria-label="Memories prepared for the new model" data-testid="switch-progress" />
      <p className="field__hint">
        {s.state === 'failed'
          ? `${s.error?.message ?? 'Something went wrong.'} Your memories are safe; search still uses ${props.fromName}.`
          : `Search keeps using ${props.fromName} until every memory is ready, then changes over at once. You can close the page: it carries on next time.`}
      </p>
      <div className="actions">
        {s.state === 'running' && (
          <button type="button" className="btn btn--secondary" onClick={props.onPause} data-testid="switch-pause">
            Pause
          </button>
        )}
        {(s.state === 'paused' || s.state === 'failed') && (
          <button type="button" className="btn btn--primary" onClick={props.onResume} data-testid="switch-resume">
            {s.state === 'failed' ? 'Try again' : 'Resume'}
          </button>
        )}
        {s.state !== 'finishing' && (
          <button type="button" className="btn btn--secondary" onClick={props.onCancel} data-testid="switch-cancel">
            Cancel
          </button>
        )}
      </div>
      {s.msPerMemory !== null && (
        <details className="models__details">
          <summary>details</summary>
          <p>
            {s.msPerMemory.toFixed(1)} ms per memory on this device ({s.done} of {s.total} done).
          </p>
        </details>
      )}
    </div>
  );
}
