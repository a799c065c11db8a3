// Runs the chunks of one large call (an import's featurizing, a long embed) on a pool of workers:
// each worker takes the next chunk when it is free (one at a time), the results come back in the
// chunks' order. The first runner is the one that must work (the encoder the app runs); the others
// are helpers: a helper that fails (its model does not load, it crashes) is dropped and its chunk
// runs on the first runner instead, so a helper can only make a call faster, never fail it. A
// failure of the first runner, or an abort, rejects the call; no further chunk is started then.
import { AppError } from '../core/errors';

export interface ChunkRunner<T, R> {
  /** Awaited before the runner takes its first chunk (a helper's model load); its failure drops the runner. */
  ready?(): Promise<void>;
  run(chunk: T, signal?: AbortSignal): Promise<R>;
  /** Told that this helper failed and was dropped (not called for the first runner). */
  onFailure?(error: unknown): void;
}

/**
 * `chunks` run on `runners` (runners[0] required, the rest helpers), results in chunk order.
 * Rejects with the first runner's error, or ABORTED when `signal` aborts.
 */
export async function runOnPool<T, R>(chunks: readonly T[], runners: readonly ChunkRunner<T, R>[], signal?: AbortSignal): Promise<R[]> {
  if (runners.length === 0) throw new AppError('INVALID_OPTION', undefined, 'runOnPool needs a runner');
  if (signal?.aborted) throw new AppError('ABORTED');
  const out = new Array<R>(chunks.length);
  const done = new Array<boolean>(chunks.length).fill(false);
  /** Chunks a dropped helper had taken, for the first runner. */
  const orphans: number[] = [];
  let next = 0;
  let failed: unknown;
  const stopped = () => failed !== undefined || signal?.aborted === true;
  const take = (primary: boolean): number => {
    if (primary && orphans.length) return orphans.shift()!;
    return next < chunks.length ? next++ : -1;
  };

  async function loop(runner: ChunkRunner<T, R>, primary: boolean): Promise<void> {
    if (!primary) {
      try {
        await runner.ready?.();
      } catch (e) {
        runner.onFailure?.(e);
        return;
      }
    }
    for (let i = take(primary); i >= 0 && !stopped(); i = take(primary)) {
      try {
        out[i] = await runner.run(chunks[i]!, signal);
        done[i] = true;
      } catch (e) {
        if (primary || signal?.aborted) {
          failed ??= e;
          return;
        }
        orphans.push(i);
        runner.onFailure?.(e);
        return;
      }
    }
  }

  const loops = runners.map((r, k) => loop(r, k === 0));
  await Promise.all(loops);
  // a helper dropped after the first runner had run out of chunks left its chunk here
  while (!stopped() && orphans.length) {
    const i = orphans.shift()!;
    try {
      out[i] = await runners[0]!.run(chunks[i]!, signal);
      done[i] = true;
    } catch (e) {
      failed ??= e;
    }
  }
  if (signal?.aborted) throw new AppError('ABORTED');
  if (failed !== undefined) throw failed;
  if (done.some((d) => !d)) throw new AppError('WORKER_CRASHED', undefined, 'a chunk was not run');
  return out;
}

/**
 * `items` cut into chunks of `size` after a stable sort by `lengthOf` (so each chunk's texts are
 * of similar length and the encoder pads less), with `back` putting the chunks' results (flattened,
 * in chunk order) back into the items' order.
 */
export function chunksByLength<T>(items: readonly T[], size: number, lengthOf: (x: T) => number): { chunks: T[][]; back: <R>(flat: readonly R[]) => R[] } {
  const order = items.map((_, i) => i).sort((a, b) => lengthOf(items[a]!) - lengthOf(items[b]!) || a - b);
  const chunks: T[][] = [];
  for (let i = 0; i < order.length; i += size) chunks.push(order.slice(i, i + size).map((k) => items[k]!));
  return {
    chunks,
    back: <R>(flat: readonly R[]) => {
      const out = new Array<R>(items.length);
      order.forEach((k, j) => (out[k] = flat[j]!));
      return out;
    },
  };
}
