// Orchestration: validate -> embed (outside any transaction) -> one write transaction ->
// index. The database is the source of truth; the engine is a cache of it that can always be
// rebuilt (a crashed engine reloads from the database).

import { AppError } from '../core/errors';
import type { HybridConfig, IndexDoc } from '../core/hybrid';
import { uuidv7, uuidv7At } from '../core/ids';
import type { Memory, MemoryId, MemoryStatus, SpaceId } from '../core/types';
import { validateMemoryPatch, validateNewMemory, validateStatus, type ValidMemoryInput } from '../core/validate';
import type { MnemographDb } from '../db/db';
import {
  addFeedbackRow,
  bulkGetMemories,
  getMemoryRow,
  getVectorRow,
  insertMemories,
  insertMemory,
  loadLiveMemories,
  modifyMemory,
  putVectorsIfUnchanged,
  restoreMemoryRow,
  setMemoryStatus,
  tombstoneMemory,
} from '../db/repo';
import type { FeedbackRow } from '../db/schema';
import { packVector, unpackVector } from '../db/vectors';
import type { EngineClient, EngineSnapshot } from '../bridge/engine-bridge';
import { prepareForEmbedding, type Embedder } from '../embed/types';
import { explainHit } from './explain';
import type { AddMemoryInput, FeedbackInput, ImportMemoryInput, ImportOptions, SearchOptions, SearchResultView, UpdateMemoryInput } from './types';

/** The space the encoder's vectors live in (seed 002: E1 = the general semantic space). */
export const PRIMARY_SPACE: SpaceId = 'E1';
export const MAX_TOP_K = 200;
export const DEFAULT_TOP_K = 20;

export interface ServiceDeps {
  db: MnemographDb;
  embedder: Embedder;
  /** Built by the services with `source` (fills a fresh engine from the database). */
  engine: (source: () => Promise<EngineSnapshot>) => EngineClient;
  hybridConfig?: Partial<HybridConfig>;
  sessionId?: string;
  now?: () => number;
  /** New ids; `atMs` is given for memories with a past createdAt (imports). */
  newId?: (atMs?: number) => string;
  /** Told about an index update that failed after the memory was safely stored (the index catches up on restart). */
  onIndexError?: (e: AppError) => void;
  /** Follow other tabs' writes over a BroadcastChannel (default true). */
  crossTab?: boolean;
}

interface ChangeMessage {
  ids: MemoryId[];
}

export function toIndexDoc(m: Memory, vector: Float32Array | null): IndexDoc {
  return {
    id: m.id,
    text: m.text,
    tags: m.tags,
    importance: m.importance,
    createdAt: m.createdAt,
    validFrom: m.validFrom,
    validTo: m.validTo,
    status: m.status,
    deletedAt: m.deletedAt,
    vector,
  };
}

export function validateSearchOptions(o: unknown): Required<Pick<SearchOptions, 'topK'>> & SearchOptions {
  if (o === undefined || o === null) return { topK: DEFAULT_TOP_K };
  if (typeof o !== 'object') throw new AppError('INVALID_OPTION', 'Search options must be an object.');
  const r = o as Record<string, unknown>;
  const topK = r.topK ?? DEFAULT_TOP_K;
  if (typeof topK !== 'number' || !Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K)
    throw new AppError('INVALID_OPTION', `topK must be a whole number from 1 to ${MAX_TOP_K}.`);
  for (const k of ['includeQuarantined', 'includeArchived', 'semantic'] as const)
    if (r[k] !== undefined && typeof r[k] !== 'boolean') throw new AppError('INVALID_OPTION', `${k} must be true or false.`);
  if (r.asOf !== undefined && (typeof r.asOf !== 'number' || !Number.isFinite(r.asOf)))
    throw new AppError('INVALID_OPTION', 'asOf must be a time in epoch milliseconds.');
  return {
    topK,
    includeQuarantined: r.includeQuarantined as boolean | undefined,
    includeArchived: r.includeArchived as boolean | undefined,
    asOf: r.asOf as number | undefined,
    semantic: r.semantic as boolean | undefined,
  };
}

function validateFeedback(f: unknown): FeedbackInput {
  if (typeof f !== 'object' || f === null) throw new AppError('INVALID_OPTION', 'Feedback must be an object.');
  const r = f as Record<string, unknown>;
  if (typeof r.memoryId !== 'string' || !r.memoryId) throw new AppError('INVALID_OPTION', 'Feedback needs a memory id.');
  if (r.kind !== 'reinforce' && r.kind !== 'suppress') throw new AppError('INVALID_OPTION', "Feedback kind must be 'reinforce' or 'suppress'.");
  if (r.valence !== undefined && (typeof r.valence !== 'number' || !Number.isFinite(r.valence) || r.valence < -1 || r.valence > 1))
    throw new AppError('INVALID_OPTION', 'Valence must be a number from -1 to 1.');
  if (r.reason !== undefined && typeof r.reason !== 'string') throw new AppError('INVALID_OPTION', 'The reason must be text.');
  if (r.mode !== undefined && r.mode !== 'standard' && r.mode !== 'lateral' && r.mode !== 'associative')
    throw new AppError('INVALID_OPTION', 'Unknown retrieval mode.');
  return r as unknown as FeedbackInput;
}

export class MnemographServices {
  readonly db: MnemographDb;
  readonly engine: EngineClient;
  readonly embedder: Embedder;
  readonly sessionId: string;
  private readonly now: () => number;
  private readonly newId: (atMs?: number) => string;
  private readonly onIndexError: (e: AppError) => void;
  private readonly hybridConfig?: Partial<HybridConfig>;

  constructor(deps: ServiceDeps) {
    this.db = deps.db;
    this.embedder = deps.embedder;
    this.now = deps.now ?? Date.now;
    this.newId = deps.newId ?? ((at) => (at === undefined ? uuidv7() : uuidv7At(at)));
    this.sessionId = deps.sessionId ?? this.newId();
    this.hybridConfig = deps.hybridConfig;
    this.onIndexError = deps.onIndexError ?? ((e) => console.error('[mnemograph] index update failed; it will be rebuilt on restart', e));
    this.engine = deps.engine(() => this.snapshot());
    // Lists follow other tabs through Dexie's live queries; the engine follows through this channel.
    if (typeof BroadcastChannel !== 'undefined' && deps.crossTab !== false) {
      this.channel = new BroadcastChannel(`mnemograph-changes:${this.db.name}`);
      this.channel.onmessage = (ev: MessageEvent<ChangeMessage>) => {
        const ids = ev.data?.ids;
        if (Array.isArray(ids) && ids.every((x) => typeof x === 'string'))
          this.syncing = this.syncing.then(() => this.syncFromDb(ids)).catch((e) => this.onIndexError(this.db.fail(e)));
      };
    }
  }

  private readonly channel: BroadcastChannel | null = null;
  /** Changes from other tabs, applied one batch at a time in arrival order. */
  private syncing: Promise<void> = Promise.resolve();
  /** Resolves when the changes announced by other tabs so far are in this tab's engine (tests). */
  whenSynced(): Promise<void> {
    return this.syncing;
  }

  /** All live memories with their E1 vectors (this model's only), for (re)filling the engine. */
  async snapshot(): Promise<EngineSnapshot> {
    const info = this.embedder.info();
    const loaded = await loadLiveMemories(this.db, PRIMARY_SPACE, info.id);
    return { docs: loaded.map((l) => toIndexDoc(l.memory, l.vector)), dim: info.dim, config: this.hybridConfig };
  }

  /** Embeds the bounded prefix of `text`; checks dimension and finiteness. */
  private async embedOne(text: string, signal?: AbortSignal): Promise<{ vector: Float32Array; truncated: boolean }> {
    const prep = prepareForEmbedding(text);
    const [vector] = await this.embedder.embed([prep.text], signal);
    const { dim } = this.embedder.info();
    if (!vector || vector.length !== dim) throw new AppError('INVALID_EMBEDDING', `The encoder returned ${vector?.length ?? 0} dimensions; expected ${dim}.`);
    for (let i = 0; i < vector.length; i++) if (!Number.isFinite(vector[i])) throw new AppError('INVALID_EMBEDDING');
    return { vector, truncated: prep.truncated };
  }

  /**
   * After a committed write: the engine follows, and other tabs are told which ids changed so
   * their engines follow too. A failure here never undoes the write.
   */
  private async index(ids: MemoryId[], fn: () => Promise<void>): Promise<void> {
    try {
      this.channel?.postMessage({ ids } satisfies ChangeMessage);
    } catch {
      /* a closed channel: this instance is being disposed */
    }
    try {
      await fn();
    } catch (e) {
      this.onIndexError(e instanceof AppError ? e : new AppError('WORKER_CRASHED', undefined, String(e)));
    }
  }

  /** Another tab changed these memories: re-read them and bring this tab's engine up to date. */
  async syncFromDb(ids: MemoryId[]): Promise<void> {
    const rows = await bulkGetMemories(this.db, ids);
    await Promise.all(
      rows.map(async (row, i) => {
        if (!row || row.deletedAt !== null) return this.index([], () => this.engine.remove(ids[i]));
        const vector = await this.storedVector(row.id);
        return this.index([], () => this.engine.upsert(toIndexDoc(row, vector)));
      }),
    );
  }

  private buildMemory(v: ValidMemoryInput, truncated: boolean, t: number): Memory {
    const createdAt = v.createdAt ?? t;
    const memory: Memory = {
      // a past createdAt gets an id carrying that time, so ids keep sorting by when things happened
      id: this.newId(v.createdAt),
      text: v.text,
      tags: v.tags,
      suggestedTags: [],
      importance: v.importance,
      ...(v.source !== undefined ? { source: v.source } : {}),
      ...(v.media !== undefined ? { media: v.media } : {}),
      createdAt,
      updatedAt: t,
      validFrom: v.validFrom ?? createdAt,
      validTo: v.validTo,
      sessionId: v.sessionId ?? this.sessionId,
      status: 'active',
      deletedAt: null,
      embedTruncated: truncated,
    };
    if (memory.validTo !== null && memory.validTo < memory.validFrom)
      throw new AppError('INVALID_OPTION', 'validTo must not be before validFrom.');
    return memory;
  }

  async addMemory(input: AddMemoryInput): Promise<Memory> {
    const v = validateNewMemory(input);
    const { vector, truncated } = await this.embedOne(v.text); // outside any transaction
    const memory = this.buildMemory(v, truncated, this.now());
    await insertMemory(this.db, memory, [packVector(memory.id, PRIMARY_SPACE, vector, this.embedder.info().id)]);
    await this.index([memory.id], () => this.engine.upsert(toIndexDoc(memory, vector)));
    return memory;
  }

  /**
   * Imports many memories (e.g. the sample collection) all or nothing: every input is validated
   * first (INVALID_OPTION / EMPTY_TEXT / INVALID_IMPORTANCE name the item), then embedded in
   * batches outside any transaction (progress after each batch, abortable), then written in
   * ONE transaction, then indexed in one engine message. Inputs may carry a past createdAt and
   * their own sessionId. Ids are assigned in input order, so give inputs oldest first.
   */
  async importMemories(inputs: ImportMemoryInput[], opts: ImportOptions = {}): Promise<Memory[]> {
    if (!Array.isArray(inputs)) throw new AppError('INVALID_OPTION', 'Import expects a list of memories.');
    const valid = inputs.map((input, i) => {
      try {
        return validateNewMemory(input);
      } catch (e) {
        if (e instanceof AppError) throw new AppError(e.code, `Item ${i + 1}: ${e.message}`, e.detail);
        throw e;
      }
    });
    const batch = Math.max(1, opts.batchSize ?? 32);
    const prepared = valid.map((v) => prepareForEmbedding(v.text));
    const vectors: Float32Array[] = [];
    const { dim, id: model } = this.embedder.info();
    for (let i = 0; i < prepared.length; i += batch) {
      if (opts.signal?.aborted) throw new AppError('ABORTED');
      const out = await this.embedder.embed(prepared.slice(i, i + batch).map((p) => p.text), opts.signal);
      for (const v of out) {
        if (v.length !== dim || !v.every(Number.isFinite)) throw new AppError('INVALID_EMBEDDING');
        vectors.push(v);
      }
      opts.onProgress?.({ embedded: vectors.length, total: prepared.length });
    }
    if (opts.signal?.aborted) throw new AppError('ABORTED');
    const t = this.now();
    const memories = valid.map((v, i) => this.buildMemory(v, prepared[i].truncated, t));
    await insertMemories(
      this.db,
      memories,
      memories.map((m, i) => packVector(m.id, PRIMARY_SPACE, vectors[i], model)),
    );
    await this.index(memories.map((m) => m.id), () => this.engine.upsertMany(memories.map((m, i) => toIndexDoc(m, vectors[i]))));
    return memories;
  }

  /**
   * Embeds every live memory that has no E1 vector from the current encoder (after a model
   * change, or rows written by an older release) and indexes it. Batches of `batchSize`
   * (default 32), each written in its own transaction; abortable; returns how many were filled.
   */
  async embedMissing(opts: ImportOptions = {}): Promise<number> {
    const { id: model } = this.embedder.info();
    const missing = (await loadLiveMemories(this.db, PRIMARY_SPACE, model)).filter((l) => l.vector === null).map((l) => l.memory);
    const batch = Math.max(1, opts.batchSize ?? 32);
    let done = 0;
    for (let i = 0; i < missing.length; i += batch) {
      if (opts.signal?.aborted) throw new AppError('ABORTED');
      const part = missing.slice(i, i + batch);
      const prepared = part.map((m) => prepareForEmbedding(m.text));
      const vectors = await this.embedder.embed(prepared.map((p) => p.text), opts.signal);
      vectors.forEach((v) => {
        if (v.length !== this.embedder.info().dim || !v.every(Number.isFinite)) throw new AppError('INVALID_EMBEDDING');
      });
      const written = await putVectorsIfUnchanged(
        this.db,
        part.map((m, j) => ({ vector: packVector(m.id, PRIMARY_SPACE, vectors[j], model), expectedText: m.text })),
      );
      const byId = new Map(part.map((m, j) => [m.id, vectors[j]]));
      await this.index(written.map((m) => m.id), () => this.engine.upsertMany(written.map((m) => toIndexDoc(m, byId.get(m.id)!))));
      done += written.length;
      opts.onProgress?.({ embedded: i + part.length, total: missing.length });
    }
    return done;
  }

  async updateMemory(id: MemoryId, patch: UpdateMemoryInput): Promise<Memory> {
    const p = validateMemoryPatch(patch);
    const current = await this.getMemory(id);
    const textChanged = p.text !== undefined && p.text !== current.text;
    const embedded = textChanged ? await this.embedOne(p.text!) : null; // outside any transaction
    const t = this.now();
    const next = await modifyMemory(
      this.db,
      id,
      (row) => {
        const m: Memory = { ...row, ...p, updatedAt: t } as Memory;
        if (p.source === undefined && 'source' in p) delete m.source;
        if (embedded) m.embedTruncated = embedded.truncated;
        if (m.validTo !== null && m.validTo < m.validFrom) throw new AppError('INVALID_OPTION', 'validTo must not be before validFrom.');
        return m;
      },
      embedded ? [packVector(id, PRIMARY_SPACE, embedded.vector, this.embedder.info().id)] : undefined,
    );
    const vector = embedded?.vector ?? (await this.storedVector(id));
    await this.index([id], () => this.engine.upsert(toIndexDoc(next, vector)));
    return next;
  }

  /** Tombstones the memory (restoreMemory undoes it) and drops it from the index. */
  async deleteMemory(id: MemoryId): Promise<void> {
    await tombstoneMemory(this.db, id, this.now());
    await this.index([id], () => this.engine.remove(id));
  }

  async restoreMemory(id: MemoryId): Promise<Memory> {
    const m = await restoreMemoryRow(this.db, id, this.now());
    const vector = await this.storedVector(id);
    await this.index([id], () => this.engine.upsert(toIndexDoc(m, vector)));
    return m;
  }

  /** Quarantine, archive or re-activate. Quarantined / archived memories are hidden from search unless asked for. */
  async setStatus(id: MemoryId, status: MemoryStatus): Promise<Memory> {
    const s = validateStatus(status);
    const m = await setMemoryStatus(this.db, id, s, this.now());
    const vector = await this.storedVector(id);
    await this.index([id], () => this.engine.upsert(toIndexDoc(m, vector)));
    return m;
  }

  /** Rejects NOT_FOUND for a missing or deleted memory (unless includeDeleted). */
  async getMemory(id: MemoryId, opts: { includeDeleted?: boolean } = {}): Promise<Memory> {
    const m = await getMemoryRow(this.db, id);
    if (!m || (m.deletedAt !== null && !opts.includeDeleted)) throw new AppError('NOT_FOUND');
    return m;
  }

  async search(query: string, options?: SearchOptions, signal?: AbortSignal): Promise<SearchResultView[]> {
    const opts = validateSearchOptions(options);
    if (typeof query !== 'string') throw new AppError('INVALID_OPTION', 'The query must be text.');
    if (signal?.aborted) throw new AppError('ABORTED');
    if (!query.trim()) return [];
    const vector = opts.semantic === false ? null : (await this.embedOne(query, signal)).vector;
    if (signal?.aborted) throw new AppError('ABORTED');
    const { semantic: _semantic, ...engineOpts } = opts;
    // A dense scan returns its top candidates however dissimilar; a hit with no matched word and
    // a cosine <= 0 carries no evidence at all and is not shown.
    const hits = (await this.engine.search({ text: query, vector }, engineOpts, signal)).filter(
      (h) => h.why.bm25 > 0 || h.why.matchedTerms.length > 0 || h.why.cosine > 0,
    );
    const rows = await bulkGetMemories(this.db, hits.map((h) => h.id));
    if (signal?.aborted) throw new AppError('ABORTED');
    const out: SearchResultView[] = [];
    hits.forEach((hit, i) => {
      const memory = rows[i];
      // deleted between indexing and now: the index lags by one message at most
      if (memory && memory.deletedAt === null) out.push({ hit, memory, explanation: explainHit(hit) });
    });
    return out;
  }

  async recordFeedback(input: FeedbackInput): Promise<FeedbackRow> {
    const f = validateFeedback(input);
    const row: FeedbackRow = {
      id: this.newId(),
      memoryId: f.memoryId,
      kind: f.kind,
      at: this.now(),
      ...(f.valence !== undefined ? { valence: f.valence } : {}),
      ...(f.reason !== undefined ? { reason: f.reason } : {}),
      ...(f.mode !== undefined ? { mode: f.mode } : {}),
    };
    await addFeedbackRow(this.db, row);
    return row;
  }

  private async storedVector(id: MemoryId): Promise<Float32Array | null> {
    const row = await getVectorRow(this.db, id, PRIMARY_SPACE);
    return row && row.model === this.embedder.info().id ? unpackVector(row) : null;
  }

  dispose(): void {
    this.channel?.close();
    this.engine.dispose();
    this.db.close();
  }
}
