// The first-run guide: three short steps showing what Mnemograph does differently, each run on the
// sample collection in Explore. Skippable; once dismissed (a stored setting) it never shows again,
// unless the person asks for it (Settings or the command palette).
import { useLiveQuery } from 'dexie-react-hooks';
import { services } from '../../services';
import type { CognitiveProfile } from '../../core/recall/profiles';
import { logError } from '../app/report';
import { useExplore } from '../explore/explore-store';
import { dismissGuide, useGuideDismissedAt } from '../settings/use-everyday';
import { goRecall } from './navigate';
import { sampleJob, useSampleJob } from './sample-job';

interface Step {
  id: 'meaning' | 'lateral' | 'chains';
  title: string;
  text: string;
  query: string;
  profile: CognitiveProfile;
  hops: 0 | 3;
}

export const GUIDE_STEPS: readonly Step[] = [
  {
    id: 'meaning',
    title: 'Search by meaning',
    text: 'Ask in your own words. Memories come back because they mean the same thing, even when they share no word with the question.',
    query: 'my vegetable plants look sick',
    profile: 'BALANCED',
    hops: 0,
  },
  {
    id: 'lateral',
    title: 'Lateral hits',
    text: 'The Divergent way of recalling adds far-off memories that share a theme: a bread problem next to a debugging story.',
    query: "why didn't my bread rise",
    profile: 'DIVERGENT',
    hops: 0,
  },
  {
    id: 'chains',
    title: 'Chains of thought',
    text: 'Associative hops follow one memory to the next, the way one thought leads to another: a bug, its fix, the fix’s own problem.',
    query: 'race condition in the job queue',
    profile: 'BALANCED',
    hops: 3,
  },
];

export function tryStep(step: Step): void {
  useExplore.getState().patchOptions({ assocHops: step.hops === 0 ? undefined : step.hops });
  goRecall(step.query, step.profile);
}

export function FirstRunGuide() {
  const dismissed = useGuideDismissedAt();
  const count = useLiveQuery(() => services().countMemories(), [], undefined);
  const job = useSampleJob();
  if (dismissed.value === undefined || count === undefined) return null; // loading, or unreadable
  // dismissed: nothing to see; the marker tells tests the stored choice was read
  if (dismissed.value !== null) return <span hidden data-testid="first-run-guide-dismissed" />;
  const hasMemories = count > 0;
  const close = () => void dismissGuide().catch((e: unknown) => logError(e));
  return (
    <section className="card guide" aria-labelledby="guide-title" data-testid="first-run-guide">
      <div className="guide__head">
        <h2 id="guide-title" className="card__title" tabIndex={-1}>
          Three things Mnemograph does differently
        </h2>
        <button type="button" className="btn btn--ghost" data-testid="guide-skip" onClick={close}>
          {hasMemories ? 'Done' : 'Skip the guide'}
        </button>
      </div>
      {!hasMemories && (
        <p className="guide__intro">
          Each step runs on the sample collection.{' '}
          <button
            type="button"
            className="btn btn--secondary btn--small"
            data-testid="guide-load-sample"
            disabled={job.state === 'running'}
            onClick={() => void sampleJob.start()}
          >
            {job.state === 'running' ? 'Loading the sample…' : 'Load the sample collection'}
          </button>
        </p>
      )}
      <ol className="guide__steps">
        {GUIDE_STEPS.map((s) => (
          <li key={s.id} className="guide__step" data-testid={`guide-step-${s.id}`}>
            <h3 className="guide__title">{s.title}</h3>
            <p className="guide__text">{s.text}</p>
            <button
              type="button"
              className="btn btn--secondary btn--small"
              data-testid={`guide-try-${s.id}`}
              disabled={!hasMemories}
              onClick={() => tryStep(s)}
            >
              Try “{s.query}”
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
