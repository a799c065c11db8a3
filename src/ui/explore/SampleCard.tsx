// The sample collection in Explore: a hero above everything while the store is empty, a card below
// the graph until the sample was loaded once, then a folded "load again" entry beside the results.
// The load itself is the page's one sample job (src/ui/shell/sample-job.ts), shared with the empty
// Memories view, the command palette and the first-run guide.
import { useEffect, useState } from 'react';
import { useSampleLoadedAt } from '../app/use-settings';
import { SampleJobCard } from '../shell/SampleJobCard';
import { useSampleJob } from '../shell/sample-job';

export type SamplePlace = 'top' | 'bottom' | 'later' | null;

export interface SamplePlacement {
  place: SamplePlace;
}

/**
 * Where the sample card goes. Once a load starts the card stays where it was (so its progress and
 * then its "done" line stay in view) until the page reloads.
 */
export function useSamplePlacement(count: number | undefined): SamplePlacement {
  const loadedAt = useSampleLoadedAt().value;
  const job = useSampleJob();
  const natural: SamplePlace = count === undefined ? null : count === 0 ? 'top' : loadedAt ? 'later' : 'bottom';
  const [held, setHeld] = useState<'top' | 'bottom' | null>(null);
  const busy = job.state === 'running';
  useEffect(() => {
    if (busy && held === null && (natural === 'top' || natural === 'bottom')) setHeld(natural);
  }, [busy, held, natural]);
  return { place: held ?? (busy && natural === 'later' ? 'bottom' : natural) };
}

export function SampleCard({ hero }: { hero: boolean }) {
  return <SampleJobCard hero={hero} className="explore__sample" />;
}

/** Beside the results once the sample is in: loading it again adds a second copy. */
export function SampleAgain() {
  return (
    <details className="card explore__sample-later">
      <summary>Sample collection</summary>
      <p className="field__hint">The sample collection is loaded. Loading it again adds a second copy.</p>
      <SampleJobCard />
    </details>
  );
}
