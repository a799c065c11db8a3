// Careful ranking's background fill (issue 8): the judge reads every live memory once, ahead of the
// queries (one text costs it ~0.5 s in WASM, so the 30 a refinement needs cannot be read at query
// time), and its vectors are kept (src/db/judge-vectors.ts, schema v13). One memory per call (a
// query's own judge call waits behind one item at most), a yield between items, paused while a
// search or a capture runs (`whenIdle`), the memories of recent answers first (`prioritise`), then
// the newest. The work is read from the store, so a reload resumes where it stopped; a write
// (`kick`) makes it look again. Capture and import never wait for it.
import { AppError, isAborted, toAppError } from '../core/errors';
import type { MemoryId } from '../core/types';
import type { MnemographDb } from '../db/db';
import { dropOtherJudges, judgeInputs, judgeWork, putJudgeVectors } from '../db/judge-vectors';
import { logError } from './context';

export interface JudgeFillProgress {
  /** Live memories with a current vector of the judge. */
  done: number;
  /** Live memories (current versions, not in the trash). */
  total: number;
  /** The fill is working (false: finished, stopped, or failed). */
  running: boolean;
  /** Waiting for a search or capture to end. */
  paused: boolean;
}

export interface JudgeFillDeps {
  db: MnemographDb;
  judgeId: string;
  /** The judge's vectors of `texts` (unit vectors). */
  embed(texts: string[], signal: AbortSignal): Promise<Float32Array[]>;
  /** Resolves at once when no search or capture runs, else when the last one ends. */
  whenIdle(): Promise<void>;
  /** Whether a search or capture runs now (the progress's `paused`). */
  busy(): boolean;
  /** The yield between items (default: a macrotask). */
  pause?: () => Promise<void>;
  /** Memories per judge call (default 1). */
  batchSize?: number;
  onProgress(p: JudgeFillProgress): void;
}

export interface JudgeFill {
  /** Starts (or resumes) the fill; a second call while running does nothing. */
  start(): void;
  /** Stops after the item in flight (aborted); start() resumes. */
  stop(): void;
  /** These memories next (a recent answer's top 30), ahead of the newest. */
  prioritise(ids: readonly MemoryId[]): void;
  /** Memories were written: look for new work (after the item in flight). */
  kick(): void;
  /** Resolves when the fill has nothing left to do (or stopped): tests, the bench. */
  settled(): Promise<void>;
  progress(): JudgeFillProgress;
}

const macrotask = () => new Promise<void>((r) => setTimeout(r, 0));
/** Failures in a row after which the fill stops (its judge is failing): the status says so. */
const MAX_FAILURES = 3;

export function createJudgeFill(deps: JudgeFillDeps): JudgeFill {
  const batchSize = Math.max(1, deps.batchSize ?? 1);
  const pause = deps.pause ?? macrotask;
  let progress: JudgeFillProgress = { done: 0, total: 0, running: false, paused: false };
  let loop: Promise<void> | null = null;
  let stopped = false;
  let dirty = false;
  let ac = new AbortController();
  let wake: (() => void) | null = null;
  const priority: MemoryId[] = [];
  const settledWaiters: (() => void)[] = [];

  const report = (p: Partial<JudgeFillProgress>) => {
    progress = { ...progress, ...p };
    deps.onProgress(progress);
  };
  const settle = () => settledWaiters.splice(0).forEach((r) => r());

  /** The next batch of `queue`: prioritised ids still in it first, then its head. */
  function take(queue: MemoryId[]): MemoryId[] {
    const out: MemoryId[] = [];
    while (out.length < batchSize && priority.length) {
      const id = priority.shift()!;
      const at = queue.indexOf(id);
      if (at >= 0) out.push(...queue.splice(at, 1));
    }
    while (out.length < batchSize && queue.length) out.push(queue.shift()!);
    return out;
  }

  async function run(): Promise<void> {
    await dropOtherJudges(deps.db, deps.judgeId);
    let failures = 0;
    while (!stopped) {
      dirty = false;
      const { live, todo } = await judgeWork(deps.db, deps.judgeId, priority);
      let done = live - todo.length;
      report({ done, total: live });
      if (todo.length === 0) {
        report({ running: false, paused: false });
        settle();
        await new Promise<void>((r) => (wake = r));
        wake = null;
        if (!stopped) report({ running: true });
        continue;
      }
      while (todo.length && !stopped && !dirty) {
        if (deps.busy()) {
          report({ paused: true });
          await deps.whenIdle();
          report({ paused: false });
          if (stopped) break;
        }
        const batch = take(todo);
        const inputs = await judgeInputs(deps.db, batch);
        const items = batch.flatMap((id, i) => (inputs[i] ? [{ id, ...inputs[i]! }] : []));
        try {
          if (items.length) {
            const vectors = await deps.embed(
              items.map((x) => x.text),
              ac.signal,
            );
            if (vectors.length !== items.length) throw new AppError('INVALID_EMBEDDING', undefined, `the judge returned ${vectors.length} vectors for ${items.length} texts`);
            done += await putJudgeVectors(
              deps.db,
              deps.judgeId,
              items.map((x, i) => ({ memoryId: x.id, inputKey: x.inputKey, vector: vectors[i] })),
            );
            report({ done });
          }
          failures = 0;
        } catch (e) {
          if (stopped || isAborted(e)) break;
          const err = toAppError(e);
          if (err.code === 'MODEL_LOAD_FAILED' || ++failures >= MAX_FAILURES) throw err;
          logError(err, 'careful ranking could not read a memory; trying the next');
        }
        await pause();
      }
    }
  }

  return {
    start() {
      if (loop) return;
      stopped = false;
      ac = new AbortController();
      report({ running: true });
      loop = run()
        .catch((e: unknown) => {
          if (!stopped) logError(e, 'careful ranking stopped reading your memories');
        })
        .finally(() => {
          loop = null;
          report({ running: false, paused: false });
          settle();
        });
    },
    stop() {
      stopped = true;
      ac.abort();
      wake?.();
    },
    prioritise(ids) {
      for (const id of ids) if (!priority.includes(id)) priority.push(id);
      // the queue in hand takes them next (`take`); a finished fill is not woken (each look reads
      // every memory; a memory read since only needs it again after an edit, which kicks)
      if (priority.length > 300) priority.splice(0, priority.length - 300);
    },
    kick() {
      dirty = true;
      wake?.();
    },
    settled() {
      if (!loop || (!progress.running && wake)) return Promise.resolve();
      return new Promise((r) => settledWaiters.push(r));
    },
    progress: () => progress,
  };
}
