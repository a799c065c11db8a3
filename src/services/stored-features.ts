// A memory's stored features: which rows are current (each row carries the id of what produced
// it), the spaces of a stored memory (E1, the encoder's vector, is a space row like the rest), the
// engine's doc for a memory, the snapshot a fresh engine is filled with, and the featurizing of
// new text (its E1 checked before anything is stored).

import { AppError, MESSAGES } from '../core/errors';
import type { Memory, MemoryId, SpaceId } from '../core/types';
import { idsOfProducer, listFeedback, vectorRowsOf, vectorRowsOfMany } from '../db/repo';
import type { VectorRow } from '../db/schema';
import { toIndexDoc, withCaptions, type EngineDoc, type EngineSnapshot } from '../protocol/engine';
import type { ServiceContext } from './context';
import { featureRows, isEncoderSpace, semanticOf, type FeaturizedItem, type SerializedFeatures, type SpaceFeaturizer } from './featurizer';
import { toFeedbackEvent } from './feedback';
import { readEvaluator, readRecallDefaults, readSimilarityConfig } from './settings';

/** The space the encoder's vectors live in (E1 = the general semantic space). */
export const PRIMARY_SPACE: SpaceId = 'E1';

/** One featurized text: every space, its E1 checked (the encoder's dimension, finite). */
export interface Featurized {
  item: FeaturizedItem;
}

export { toIndexDoc, withCaptions };

/** Ids checked per task in the staleness check (the page's thread yields between slices). */
const STALE_SLICE = 20_000;

export function createStoredFeatures(ctx: ServiceContext) {
  const { db, embedder, featurizer } = ctx;

  /** Producers whose rows are current: the encoder for E1/E5/E10, the lexical featurizers for the rest. */
  const producers = (): { encoder: string; lexical: string } => ({ encoder: embedder.info().id, lexical: featurizer.lexicalId() });

  const isCurrent = (row: VectorRow, p = producers()): boolean => row.model === (isEncoderSpace(row.space) ? p.encoder : p.lexical);

  /** The encoder (id, dimension) the engine's last snapshot was taken for. */
  let snapshotEncoder: { id: string; dim: number } | null = null;

  /** The current spaces of one memory (E1 included), from the database. */
  async function storedFeatures(id: MemoryId): Promise<SerializedFeatures> {
    const p = producers();
    const spaces: SerializedFeatures = {};
    for (const row of await vectorRowsOf(db, id)) if (row.dtype === 'space' && isCurrent(row, p)) spaces[row.space] = row.data;
    return spaces;
  }

  return {
    producers,

    /** A stored memory's engine doc with every current space (a restore, another tab's write). */
    async storedDoc(m: Memory): Promise<EngineDoc> {
      return toIndexDoc(m, await storedFeatures(m.id));
    },

    /** The stored docs of many memories, their vector rows read in one go (a restore of many, an undo of Delete all). */
    async storedDocs(ms: Memory[]): Promise<EngineDoc[]> {
      const p = producers();
      const rows = await vectorRowsOfMany(db, ms.map((m) => m.id));
      return ms.map((m) => {
        const spaces: SerializedFeatures = {};
        for (const row of rows.get(m.id) ?? []) if (row.dtype === 'space' && isCurrent(row, p)) spaces[row.space] = row.data;
        return toIndexDoc(m, spaces);
      });
    },

    /** A memory's engine doc keeping the spaces (and so the vector) the engine has: a status or tag change. */
    metaDoc: (m: Memory): EngineDoc => toIndexDoc(m),

    /** The engine doc of a memory with freshly computed features. */
    freshDoc: (m: Memory, got: Featurized): EngineDoc => toIndexDoc(m, got.item.spaces),

    /** The rows to store for freshly computed features (one per present space). */
    rowsOf: (memoryId: MemoryId, got: Featurized): VectorRow[] => featureRows(memoryId, got.item.spaces, producers()),

    /**
     * Whether the engine was filled for another encoder than the one running now: the engine
     * may start before the model has loaded, on the encoder the app expects, and the one that
     * loads can differ (its files absent: the fallback runs). Then the engine must be refilled.
     */
    engineEncoderStale(): boolean {
      const info = embedder.info();
      return snapshotEncoder !== null && (snapshotEncoder.id !== info.id || snapshotEncoder.dim !== info.dim);
    },

    /**
     * Everything a fresh engine needs: where it reads the memories and their current features
     * itself (the engine worker reads the database, schema v9's blocks, in stages: nothing big
     * passes through this thread), the feedback log and the settings.
     */
    async snapshot(): Promise<EngineSnapshot> {
      const info = embedder.info();
      const p = producers();
      snapshotEncoder = { id: info.id, dim: info.dim };
      const [feedback, similarity, recallDefaults, evaluator] = await Promise.all([listFeedback(db), readSimilarityConfig(db), readRecallDefaults(db), readEvaluator(db)]);
      return {
        // a memory without a current E1 (model change) keeps its lexical spaces: found by them meanwhile
        store: { dbName: db.name, producers: p },
        dim: info.dim,
        encoder: info.id,
        config: ctx.hybridConfig,
        similarity,
        recallDefaults,
        feedback: feedback.map(toFeedbackEvent),
        evaluator,
      };
    },

    /**
     * The live memories whose features are missing or stale: no E1 from the current encoder, or
     * no E2 row from the current lexical featurizers (rows of an older release, a model change).
     */
    async staleOf<M extends Memory>(live: M[]): Promise<M[]> {
      const stale = new Set(await this.staleIds(live.map((m) => m.id)));
      return live.filter((m) => stale.has(m.id));
    },

    /**
     * staleOf by ids: the current producers' block heads only (schema v9), so a start-up with
     * nothing stale reads no memory row; the ids checked in slices between which the page's
     * thread is free (issue 13: no task over 100 ms at 100k).
     */
    async staleIds(ids: readonly MemoryId[]): Promise<MemoryId[]> {
      const p = producers();
      const e1 = await idsOfProducer(db, PRIMARY_SPACE, p.encoder);
      const e2 = await idsOfProducer(db, 'E2', p.lexical);
      const out: MemoryId[] = [];
      for (let i = 0; i < ids.length; i += STALE_SLICE) {
        if (i > 0) await new Promise((r) => setTimeout(r, 0));
        for (const id of ids.slice(i, i + STALE_SLICE)) if (!e1.has(id) || !e2.has(id)) out.push(id);
      }
      return out;
    },

    /** Checks a featurized query's E1 (the encoder's dimension, finite): INVALID_EMBEDDING otherwise. */
    checkQuery(features: SerializedFeatures): void {
      semanticOf(features, embedder.info().dim);
    },

    /**
     * Features of many items in batches of `batch` (outside any transaction), E1 checked.
     * Progress after each batch; abortable.
     */
    async featurizeAll(
      items: Parameters<SpaceFeaturizer['featurize']>[0],
      opts: { signal?: AbortSignal; batch?: number; onBatch?: (done: number) => void } = {},
    ): Promise<Featurized[]> {
      const batch = Math.max(1, opts.batch ?? items.length);
      const out: Featurized[] = [];
      for (let i = 0; i < items.length; i += batch) {
        if (opts.signal?.aborted) throw new AppError('ABORTED');
        const part = items.slice(i, i + batch);
        const got = await featurizer.featurize(part, opts.signal);
        // read after the call: the first call waits for the model, which may be another than expected
        const { dim } = embedder.info();
        if (!Array.isArray(got) || got.length !== part.length)
          throw new AppError('INVALID_EMBEDDING', undefined, MESSAGES.wrongCount('feature sets', got?.length ?? 0, part.length));
        for (const item of got) {
          semanticOf(item.spaces, dim); // a missing, mis-sized or non-finite E1 is refused before anything is stored
          out.push({ item });
        }
        opts.onBatch?.(out.length);
      }
      if (opts.signal?.aborted) throw new AppError('ABORTED');
      return out;
    },
  };
}

export type StoredFeatures = ReturnType<typeof createStoredFeatures>;
