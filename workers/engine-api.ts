// The engine's API as the worker exposes it (every failure leaves as an ErrorEnvelope), and the
// staged start from the database (schema v9): the live memories in large pages, searchable by
// their words as soon as they are in (the load call returns then: first answers are keyword
// results), then the current feature blocks, E1 first, attached in chunks between which the
// worker answers queries; 'warm' when everything is in. A write that reaches the engine meanwhile
// (upsert / remove) wins over the stored features read later: those ids are skipped.

import { AppError } from '../src/core/errors';
import type { HybridQuery } from '../src/core/hybrid';
import type { RecallOptionsInput } from '../src/core/recall';
import type { SerializedFeatures, SimilarityConfig } from '../src/core/spaces';
import type { MemoryId, SpaceId } from '../src/core/types';
import {
  toIndexDoc,
  type EngineDivergenceQuery,
  type EngineDoc,
  type EngineFeedbackEvent,
  type EngineLoadOptions,
  type EngineLoadProgress,
  type EngineRecallQuery,
  type EngineSearchOptions,
  type EngineStoreSource,
} from '../src/protocol/engine';
import { guardApi } from '../src/protocol/guard';
import { EngineCore } from './engine-core';
import { blockData, currentHeads, memoryPages, openStore } from './engine-store/read';

const nextTask = (): Promise<void> => new Promise((r) => setTimeout(r, 0));
/** Memories attached per slice of work (then the worker yields to queued queries). */
const ATTACH_CHUNK = 1000;
/** Blocks read per IndexedDB request. */
const BLOCKS_PER_READ = 8;

type Progress = (p: EngineLoadProgress) => unknown;

export function createEngineApi(core: EngineCore = new EngineCore()) {
  /** Bumped by every load: a staged load that is no longer the newest stops. */
  let generation = 0;
  /** Ids written through the API since the staged load began: their stored features are older. */
  let touched = new Set<MemoryId>();
  let warm: Promise<void> = Promise.resolve();
  const touch = (ids: MemoryId[]) => {
    if (!core.warm) for (const id of ids) touched.add(id);
  };
  const tell = (onProgress: Progress | undefined, p: EngineLoadProgress) => {
    try {
      void Promise.resolve(onProgress?.(p)).catch(() => undefined);
    } catch {
      /* the page went away: nothing to tell */
    }
  };

  async function loadFromStore(source: EngineStoreSource, opts: EngineLoadOptions, onProgress?: Progress): Promise<{ size: number }> {
    const gen = ++generation;
    const t0 = performance.now();
    const ms = () => Math.round(performance.now() - t0);
    const db = await openStore(source);
    try {
      const total = await db.memories.count();
      let done = 0;
      let first = true;
      for await (const page of memoryPages(db)) {
        if (gen !== generation) throw new AppError('ABORTED');
        const docs = page.filter((m) => m.deletedAt === null).map((m) => toIndexDoc(m));
        if (first) core.load(docs, opts);
        else core.upsertMany(docs);
        first = false;
        done += page.length;
        tell(onProgress, { stage: 'memories', done, total, ms: ms() });
        await nextTask();
      }
      if (first) core.load([], opts);
    } catch (e) {
      db.close();
      throw e;
    }
    core.warm = false;
    touched = new Set();
    tell(onProgress, { stage: 'keyword', done: core.stats().size, total: core.stats().size, ms: ms() });
    warm = attachStored(gen, db, source, onProgress, ms).finally(() => db.close());
    warm.catch(() => undefined); // a failure is reported by whenWarm / stats; the keyword engine stays
    return { size: core.stats().size };
  }

  async function attachStored(gen: number, db: Awaited<ReturnType<typeof openStore>>, source: EngineStoreSource, onProgress: Progress | undefined, ms: () => number): Promise<void> {
    const heads = await currentHeads(db, source.producers);
    const features = new Map<MemoryId, SerializedFeatures>();
    const fresh = (id: MemoryId) => !touched.has(id);
    let read = 0;
    for (let i = 0; i < heads.length; i += BLOCKS_PER_READ) {
      if (gen !== generation) return;
      const part = heads.slice(i, i + BLOCKS_PER_READ);
      const datas = await blockData(db, part);
      const vectors: { id: MemoryId; features: SerializedFeatures }[] = [];
      part.forEach((h, j) => {
        const d = datas[j];
        if (!d) return;
        const spans = new Uint32Array(d.spans);
        h.ids.forEach((id, k) => {
          const buf = d.data.slice(spans[2 * k], spans[2 * k] + spans[2 * k + 1]);
          const f = features.get(id) ?? features.set(id, {}).get(id)!;
          f[h.space as SpaceId] = buf;
          if (h.space === 'E1' && fresh(id)) vectors.push({ id, features: { E1: buf } });
        });
      });
      // the vectors first: dense search works before the other spaces are in
      if (vectors.length) core.attachVectors(vectors);
      read += part.length;
      tell(onProgress, { stage: 'features', done: read, total: heads.length, ms: ms() });
      await nextTask();
    }
    const all = [...features];
    for (let i = 0; i < all.length; i += ATTACH_CHUNK) {
      if (gen !== generation) return;
      core.attachFeatures(all.slice(i, i + ATTACH_CHUNK).flatMap(([id, f]) => (fresh(id) ? [{ id, features: f }] : [])));
      await nextTask();
    }
    if (gen !== generation) return;
    core.settle();
    core.warm = true;
    touched = new Set();
    tell(onProgress, { stage: 'warm', done: all.length, total: all.length, ms: ms() });
  }

  return guardApi(
    {
      load: (docs: EngineDoc[], opts: EngineLoadOptions) => {
        generation++;
        core.warm = true;
        return core.load(docs, opts);
      },
      loadFromStore,
      /** Resolves when a staged load has attached every stored feature (rejects if that failed). */
      whenWarm: () => warm,
      upsert: (doc: EngineDoc) => {
        touch([doc.id]);
        core.upsert(doc);
      },
      upsertMany: (docs: EngineDoc[]) => {
        touch(docs.map((d) => d.id));
        core.upsertMany(docs);
      },
      remove: (id: MemoryId) => {
        touch([id]);
        core.remove(id);
      },
      removeMany: (ids: MemoryId[]) => {
        touch(ids);
        core.removeMany(ids);
      },
      search: (q: HybridQuery, opts: EngineSearchOptions, requestId?: number) => core.search(q, opts, requestId),
      recall: async (q: EngineRecallQuery, opts: RecallOptionsInput, requestId?: number) => {
        const warmBefore = core.warm;
        const out = await core.recall(q, opts, requestId);
        return warmBefore ? out : { ...out, partial: true };
      },
      divergence: (q: EngineDivergenceQuery) => core.divergence(q),
      recordFeedback: (e: EngineFeedbackEvent) => core.recordFeedback(e),
      setSimilarityConfig: (c: SimilarityConfig) => core.setSimilarityConfig(c),
      setRecallDefaults: (o: RecallOptionsInput) => core.setRecallDefaults(o),
      lateralStatus: () => core.lateralStatus(),
      reEnableLateral: () => core.reEnableLateral(),
      cancel: (requestId: number) => core.cancel(requestId),
      stats: () => core.stats(),
    },
    'WORKER_CRASHED',
  );
}
