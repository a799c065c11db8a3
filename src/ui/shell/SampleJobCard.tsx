// The sample collection offered as a card (empty Memories view, Explore): one click loads it,
// with the phase, a bar that moves per batch and the time left; Cancel while the encoder works.
// Test ids as the Explore panel's SampleLoader had them (sample-load, sample-progress(-text),
// sample-cancel, sample-done, sample-error, sample-retry).
import { useId } from 'react';
import { leftWords, phaseWords } from './progress';
import { sampleJob, useSampleJob } from './sample-job';

export interface SampleJobCardProps {
  /** Shown above everything in an empty store: a bigger title. */
  hero?: boolean;
  className?: string;
}

export function SampleJobCard({ hero = false, className = '' }: SampleJobCardProps) {
  const job = useSampleJob();
  const titleId = useId();
  const textId = useId();
  const Title = hero ? 'h2' : 'h3';
  return (
    <section
      className={`card sample-card${hero ? ' sample-card--hero' : ''} ${className}`}
      aria-labelledby={titleId}
      tabIndex={-1}
      data-testid="sample-loader"
      data-phase={job.state === 'running' ? 'loading' : job.state}
    >
      <Title id={titleId} className="card__title">
        {hero ? 'Start with the sample collection' : 'Sample collection'}
      </Title>
      {job.state === 'idle' && (
        <>
          <p className="field__hint sample-card__text">
            323 example memories of one person over six months: work notes, code, cooking, the garden, running and the
            people in their life. Everything stays on this device; you can delete them any time.
          </p>
          <button type="button" className="btn btn--primary" data-testid="sample-load" onClick={() => void sampleJob.start()}>
            Load sample collection
          </button>
          {job.note && (
            <p role="status" className="field__hint sample-card__note">
              {job.note}
            </p>
          )}
        </>
      )}
      {job.state === 'running' && (
        <>
          <p id={textId} role="status" data-testid="sample-progress-text" data-sample-phase={job.phase} className="sample-card__status">
            {phaseWords(job.phase, job.done, job.total)}
            {job.phase === 'embedding' && job.leftMs !== null && <span className="sample-card__left"> · {leftWords(job.leftMs)}</span>}
          </p>
          <div
            className="sample-card__bar"
            role="progressbar"
            aria-labelledby={textId}
            aria-valuemin={0}
            aria-valuemax={job.total || undefined}
            aria-valuenow={job.total > 0 ? job.done : undefined}
            data-testid="sample-progress"
          >
            <span style={{ width: job.total > 0 ? `${(100 * job.done) / job.total}%` : '0%' }} />
          </div>
          {job.phase === 'embedding' && (
            <button type="button" className="btn btn--ghost" data-testid="sample-cancel" onClick={() => sampleJob.cancel()}>
              Cancel
            </button>
          )}
        </>
      )}
      {job.state === 'done' && (
        <p role="status" className="sample-card__done" data-testid="sample-done" data-ms={job.ms}>
          <span aria-hidden="true">✓ </span>Sample collection loaded: {job.count} {job.count === 1 ? 'memory' : 'memories'}.
        </p>
      )}
      {job.state === 'error' && (
        <>
          <p role="alert" className="alert alert--error" data-testid="sample-error">
            {job.message}
          </p>
          <button type="button" className="btn btn--primary" data-testid="sample-retry" onClick={() => void sampleJob.start()}>
            Try again
          </button>
        </>
      )}
    </section>
  );
}
