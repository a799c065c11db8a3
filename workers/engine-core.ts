// The search engine's logic as a plain class, so it can be tested (and run on the main thread
// as a fallback) without Comlink. engine.worker.ts only exposes it.

import { AppError, type ErrorEnvelope } from '../src/core/errors';
import { HybridIndex, type HybridConfig, type HybridQuery, type HybridSearchOptions, type IndexDoc } from '../src/core/hybrid';
import type { MemoryId, ScoredHit } from '../src/core/types';

export interface EngineLoadOptions {
  dim: number;
  config?: Partial<HybridConfig>;
}

export interface EngineStats {
  loaded: boolean;
  dim: number;
  size: number;
  searches: number;
  cancelled: number;
  lastSearchMs: number;
  lastLoadMs: number;
}

/** Lets queued messages (a cancel sent after this search) run before the search does its work. */
const yieldToEventLoop = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

export class EngineCore {
  private index: HybridIndex | null = null;
  private readonly cancelledIds = new Set<number>();
  private searches = 0;
  private cancelledCount = 0;
  private lastSearchMs = 0;
  private lastLoadMs = 0;

  /** Replaces the index with `docs` (vectors are unit-normalised by the index). */
  load(docs: IndexDoc[], opts: EngineLoadOptions): { size: number } {
    const t0 = performance.now();
    const index = new HybridIndex(opts.dim, opts.config);
    for (const d of docs) index.upsert(d); // throws on a bad doc: the old index stays in place
    this.index = index;
    this.lastLoadMs = performance.now() - t0;
    return { size: index.size };
  }

  upsert(doc: IndexDoc): void {
    this.require().upsert(doc);
  }

  /** All or nothing: every doc is checked by a scratch pass before the live index changes. */
  upsertMany(docs: IndexDoc[]): void {
    const index = this.require();
    const probe = new HybridIndex(index.dim);
    for (const d of docs) probe.upsert({ ...d, text: '', tags: [] }); // validates fields and vectors cheaply
    for (const d of docs) index.upsert(d);
  }

  remove(id: MemoryId): void {
    this.require().remove(id);
  }

  /**
   * Runs a search unless `requestId` was cancelled before it started. Async on purpose: it
   * yields once, so when the UI fires searches faster than they run, the cancels of the
   * superseded ones are processed first and only the newest does real work.
   */
  async search(q: HybridQuery, opts: HybridSearchOptions, requestId?: number): Promise<ScoredHit[]> {
    if (requestId !== undefined) {
      await yieldToEventLoop();
      if (this.cancelledIds.delete(requestId)) {
        this.cancelledCount++;
        throw new AppError('ABORTED');
      }
    }
    const index = this.require();
    const t0 = performance.now();
    const hits = index.search(q, opts);
    this.lastSearchMs = performance.now() - t0;
    this.searches++;
    return hits;
  }

  cancel(requestId: number): void {
    this.cancelledIds.add(requestId);
    // bounded: a cancel for a search that already finished would otherwise stay forever
    if (this.cancelledIds.size > 256) this.cancelledIds.delete(this.cancelledIds.values().next().value as number);
  }

  stats(): EngineStats {
    return {
      loaded: this.index !== null,
      dim: this.index?.dim ?? 0,
      size: this.index?.size ?? 0,
      searches: this.searches,
      cancelled: this.cancelledCount,
      lastSearchMs: this.lastSearchMs,
      lastLoadMs: this.lastLoadMs,
    };
  }

  private require(): HybridIndex {
    if (!this.index) throw new AppError('INVALID_CONFIG', 'The search index is not loaded yet.');
    return this.index;
  }
}

/** Any thrown value as a plain envelope that survives structured cloning. */
export function toEnvelope(e: unknown): ErrorEnvelope {
  if (e instanceof AppError) return e.toEnvelope();
  const detail = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return { code: 'WORKER_CRASHED', message: 'The search engine failed unexpectedly.', detail };
}

/** Wraps every method so failures cross the boundary as ErrorEnvelope, never as bare Errors. */
export function createEngineApi(core: EngineCore = new EngineCore()) {
  const guard =
    <A extends unknown[], R>(fn: (...a: A) => R) =>
    async (...a: A): Promise<Awaited<R>> => {
      try {
        return await fn(...a);
      } catch (e) {
        throw toEnvelope(e); // a plain object: Comlink passes it through unchanged
      }
    };
  return {
    load: guard((docs: IndexDoc[], opts: EngineLoadOptions) => core.load(docs, opts)),
    upsert: guard((doc: IndexDoc) => core.upsert(doc)),
    upsertMany: guard((docs: IndexDoc[]) => core.upsertMany(docs)),
    remove: guard((id: MemoryId) => core.remove(id)),
    search: guard((q: HybridQuery, opts: HybridSearchOptions, requestId?: number) => core.search(q, opts, requestId)),
    cancel: guard((requestId: number) => core.cancel(requestId)),
    stats: guard(() => core.stats()),
  };
}

export type EngineApi = ReturnType<typeof createEngineApi>;
