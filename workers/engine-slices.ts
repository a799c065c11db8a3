// Work of the engine's staged start done in time slices: a slice runs batches until it has taken
// SLICE_MS, then the worker yields so a query that arrived meanwhile is answered (issue 13: a
// query gets in within about one slice, whatever the store's size or the machine's load; slices
// by count took 1-2 s each at 30k under load).

import { AppError } from '../src/core/errors';

/** Synchronous work between two yields to queued messages, ms. */
export const SLICE_MS = 50;

const nextTask = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

/** A clock for one run of slices: `due()` after SLICE_MS of work; `yield()` lets queued messages in and starts a new slice. */
export function sliceClock(now: () => number = () => performance.now(), sliceMs = SLICE_MS) {
  let start = now();
  return {
    due: () => now() - start >= sliceMs,
    async yield(): Promise<void> {
      await nextTask();
      start = now();
    },
  };
}

export type SliceClock = ReturnType<typeof sliceClock>;

/**
 * `work` over `items` in batches of `batch`, yielding first whenever the clock's slice is spent.
 * Returns false (and stops) when `stop()` says so after a yield (a newer load began).
 */
export async function inSlices<T>(clock: SliceClock, items: readonly T[], batch: number, work: (part: T[]) => void, stop: () => boolean): Promise<boolean> {
  for (let k = 0; k < items.length; k += batch) {
    if (clock.due()) {
      await clock.yield();
      if (stop()) return false;
    }
    work(items.slice(k, k + batch));
  }
  return true;
}

/** A pause for work in steps (engine-warm.ts): yields to queued messages once a slice has run; ABORTED when `stop()` says so after it. */
export function slicePause(stop: () => boolean, clock: SliceClock = sliceClock()): () => Promise<void> {
  return async () => {
    if (!clock.due()) return;
    await clock.yield();
    if (stop()) throw new AppError('ABORTED');
  };
}
