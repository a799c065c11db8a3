// The first-run guide: three short steps showing what Mnemograph does differently, each run on the
// sample collection in Explore. Shown on the Memories view only (not above every view), unfolded
// while there is nothing stored, folded to one line once memories exist. Skippable; once
// dismissed (a stored setting) it never shows again, unless the person asks for it (Settings or
// the command palette: openGuide, which brings it back unfolded).
import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { useUi } from '../../state/ui-store';
import { services } from '../../services';
import type { CognitiveProfile } from '../../core/recall/profiles';
import { logError } from '../app/report';
import { useExplore } from '../explore/explore-store';
import { dismissGuide, useGuideDismissedAt } from '../settings/use-everyday';
import { goRecall } from './navigate';
import { sampleJob, useSampleJob } from './sample-job';
import { leftWords, phaseWords } from './progress';
import { useShell } from './shell-store';

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
  const view = useUi((s) => s.view);
  const asked = useShell((s) => s.guideOpen);
  const [unfolded, setUnfolded] = useState(false);
  if (dismissed.value === undefined || count === undefined) return null; // loading, or unreadable
  // dismissed: nothing to see; the marker tells tests the stored choice was read
  if (dismissed.value !== null) return <span hidden data-testid="first-run-guide-dismissed" />;
  if (view !== 'memories') return null; // the home view only: the other views start with their own content
  const hasMemories = count > 0;
  const open = !hasMemories || unfolded || asked;
  const fold = (next: boolean) => {
    setUnfolded(next);
    if (!next) useShell.getState().set({ guideOpen: false });
  };
  const close = () => {
    useShell.getState().set({ guideOpen: false });
    void dismissGuide().catch((e: unknown) => logError(e));
  };
  return (
    <section className={`card guide${open ? '' : ' guide--folded'}`} aria-labelledby="guide-title" data-testid="first-run-guide" data-open={open}>
      <div className="guide__head">
        <h2 id="guide-title" className="card__title" tabIndex={-1}>
          Three things Mnemograph does differently
        </h2>
        <div className="guide__actions">
          {hasMemories && (
            <button type="button" className="btn btn--ghost btn--small" aria-expanded={open} aria-controls="guide-steps" data-testid="guide-toggle" onClick={() => fold(!open)}>
              {open ? 'Hide the steps' : 'Show the steps'}
            </button>
          )}
          <button type="button" className="btn btn--ghost btn--small" data-testid="guide-skip" onClick={close}>
            {hasMemories ? 'Done' : 'Skip the guide'}
          </button>
        </div>
      </div>
      {!open && <p className="guide__summary">{GUIDE_STEPS.map((s) => s.title).join(' · ')}</p>}
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
          {job.state === 'running' && (
            // the progress where the person clicked (the sample card with its bar and Cancel may be below the fold)
            <span className="guide__progress" role="status" data-testid="guide-sample-progress">
              {' '}
              {phaseWords(job.phase, job.done, job.total)}
              {job.phase === 'embedding' && job.leftMs !== null ? ` · ${leftWords(job.leftMs)}` : ''}
            </span>
          )}
        </p>
      )}
      <ol className="guide__steps" id="guide-steps" hidden={!open}>
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
