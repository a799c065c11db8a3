// One click to fill an empty database with the sample collection, with visible progress
// ("n of N embedded"), a done state, cancellation and a retry after a failure.
import { useEffect, useId, useRef, useState } from 'react';
import { isAborted } from '../../../core/errors';
import { errorMessage } from '../../app/format';
import './panels.css';

export type SampleProgress = (done: number, total: number) => void;

export interface SampleLoaderProps {
  /**
   * Loads the collection, reporting progress; resolves with how many memories were added (or
   * nothing, then the last reported total is shown). Rejections are shown; an AppError ABORTED (or
   * an AbortError) after Cancel returns to the start quietly.
   */
  onLoad: (onProgress: SampleProgress, signal: AbortSignal) => Promise<number | void>;
  /** Size of the collection, shown before loading starts. */
  total?: number;
  /** The collection is already in the database: start in the done state with this count. */
  loadedCount?: number;
  onDone?: (count: number) => void;
  /** What the collection is, shown before loading. */
  description?: string;
  className?: string;
}

type Phase =
  | { kind: 'idle'; note?: string }
  | { kind: 'loading'; done: number; total: number }
  | { kind: 'done'; count: number }
  | { kind: 'error'; message: string };

export function SampleLoader(props: SampleLoaderProps) {
  const { onLoad, total, loadedCount, onDone, className } = props;
  const description =
    props.description ??
    `${total !== undefined ? String(total) : 'About 300'} example memories of one person over six months: work notes, code, hobbies, travel and people. Everything stays on this device.`;
  const [phase, setPhase] = useState<Phase>(loadedCount !== undefined ? { kind: 'done', count: loadedCount } : { kind: 'idle' });
  const abortRef = useRef<AbortController | null>(null);
  const mounted = useRef(true);
  const headingId = useId();
  const progressLabelId = useId();

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      abortRef.current?.abort();
    };
  }, []);

  useEffect(() => {
    if (loadedCount !== undefined) setPhase({ kind: 'done', count: loadedCount });
  }, [loadedCount]);

  const start = async () => {
    const controller = new AbortController();
    abortRef.current = controller;
    let last = { done: 0, total: total ?? 0 };
    setPhase({ kind: 'loading', ...last });
    const progress: SampleProgress = (done, n) => {
      if (controller.signal.aborted || !mounted.current) return;
      last = { done, total: n };
      setPhase({ kind: 'loading', done, total: n });
    };
    try {
      const result = await onLoad(progress, controller.signal);
      if (!mounted.current) return;
      if (controller.signal.aborted) {
        setPhase({ kind: 'idle', note: 'Loading was cancelled; nothing was added.' });
        return;
      }
      const count = typeof result === 'number' ? result : last.total;
      setPhase({ kind: 'done', count });
      onDone?.(count);
    } catch (e) {
      if (!mounted.current) return;
      if (isAborted(e) || controller.signal.aborted) setPhase({ kind: 'idle', note: 'Loading was cancelled; nothing was added.' });
      else setPhase({ kind: 'error', message: errorMessage(e) });
    } finally {
      if (abortRef.current === controller) abortRef.current = null;
    }
  };

  const cancel = () => abortRef.current?.abort();

  return (
    <section className={`mg-x mg-card mg-sample ${className ?? ''}`} data-testid="sample-loader" data-phase={phase.kind} aria-labelledby={headingId}>
      <h3 id={headingId} className="mg-card__title">Sample collection</h3>
      {phase.kind === 'idle' && (
        <>
          <p className="mg-muted">{description}</p>
          <button type="button" className="mg-btn mg-btn--primary" data-testid="sample-load" onClick={() => void start()}>
            Load sample collection
          </button>
          {phase.note && (
            <p role="status" className="mg-muted mg-small">
              {phase.note}
            </p>
          )}
        </>
      )}
      {phase.kind === 'loading' && (
        <>
          <p id={progressLabelId} role="status" data-testid="sample-progress-text">
            {phase.total > 0 ? `${phase.done} of ${phase.total} embedded` : 'Preparing…'}
          </p>
          <div
            className="mg-progress"
            role="progressbar"
            aria-labelledby={progressLabelId}
            aria-valuemin={0}
            aria-valuemax={phase.total || undefined}
            aria-valuenow={phase.total > 0 ? phase.done : undefined}
            data-testid="sample-progress"
          >
            <span className="mg-progress__fill" style={{ width: phase.total > 0 ? `${(100 * phase.done) / phase.total}%` : '0%' }} />
          </div>
          <button type="button" className="mg-btn mg-btn--quiet" data-testid="sample-cancel" onClick={cancel}>
            Cancel
          </button>
        </>
      )}
      {phase.kind === 'done' && (
        <p role="status" className="mg-sample__done" data-testid="sample-done">
          <span aria-hidden="true">✓ </span>Sample collection loaded: {phase.count} {phase.count === 1 ? 'memory' : 'memories'}.
        </p>
      )}
      {phase.kind === 'error' && (
        <>
          <p role="alert" className="mg-field__error" data-testid="sample-error">
            {phase.message}
          </p>
          <button type="button" className="mg-btn mg-btn--primary" data-testid="sample-retry" onClick={() => void start()}>
            Try again
          </button>
        </>
      )}
    </section>
  );
}
