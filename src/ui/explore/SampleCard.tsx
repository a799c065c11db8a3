// The sample collection card: a hero above everything while the store is empty, a card below the
// graph until the sample was loaded once, then a folded "load again" entry beside the results.
import { useCallback, useState } from 'react';
import { markSampleLoaded, useSampleLoadedAt } from '../app/use-settings';
import { logError } from '../app/report';
import { useUi } from '../../state/ui-store';
import { SampleLoader, type SampleProgress } from './panels';
import { loadSample } from './sample';

export type SamplePlace = 'top' | 'bottom' | 'later' | null;

export interface SamplePlacement {
  place: SamplePlace;
  onLoad: (p: SampleProgress, signal: AbortSignal) => Promise<number>;
}

/**
 * Where the sample card goes. Once loading starts the card stays where it was (moving it would
 * remount the loader and cancel the load) and keeps its "done" line until the page reloads.
 */
export function useSamplePlacement(count: number | undefined): SamplePlacement {
  const loadedAt = useSampleLoadedAt().value;
  const [active, setActive] = useState<'top' | 'bottom' | null>(null);
  const empty = count === 0;
  const place: SamplePlace =
    count === undefined ? null : active ?? (empty ? 'top' : loadedAt ? 'later' : 'bottom');
  const onLoad = useCallback(
    (p: SampleProgress, signal: AbortSignal) => {
      setActive(empty ? 'top' : 'bottom');
      return loadSample(p, signal);
    },
    [empty],
  );
  return { place, onLoad };
}

export function SampleCard({ hero, onLoad }: { hero: boolean; onLoad: SamplePlacement['onLoad'] }) {
  const pushToast = useUi((s) => s.pushToast);
  return (
    <section className={`explore__sample${hero ? ' explore__sample--hero' : ''}`} aria-label="Sample collection">
      {hero && <h2 className="explore__hero-title">Start with the sample collection</h2>}
      <SampleLoader
        onLoad={onLoad}
        onDone={() => {
          // only moves the card aside on the next visit: a failure is logged, the sample is loaded
          markSampleLoaded().catch((e: unknown) => logError(e));
          pushToast({ kind: 'success', message: 'Sample collection loaded.' });
        }}
      />
    </section>
  );
}

/** Beside the results once the sample is in: loading it again adds a second copy. */
export function SampleAgain() {
  return (
    <details className="card explore__sample-later">
      <summary>Sample collection</summary>
      <p className="field__hint">The sample collection is loaded. Loading it again adds a second copy.</p>
      <SampleLoader onLoad={loadSample} />
    </details>
  );
}
