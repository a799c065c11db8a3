// Orchestration: validate -> embed (outside any transaction) -> one write transaction ->
// index. The database is the source of truth; the engine is a cache of it that can always be
// rebuilt (a crashed engine reloads from the database).

import { AppError } from '../core/errors';
import type { HybridConfig } from '../core/hybrid';
import { uuidv7, uuidv7At } from '../core/ids';
import {
  DEFAULT_SIMILARITY_CONFIG,
  assertValidSimilarityConfig,
  loadSimilarityConfig,
  type SimilarityConfig,
} from '../core/spaces';
import {
  LateralEvaluator,
  resolveRecallOptions,
  validateValence,
  type LateralEvaluatorState,
  type LateralStatus,
  type RecallOptionsInput,
} from '../core/recall';
import { deriveTags } from '../core/tags';
import type { Memory, MemoryId, MemoryStatus, RetrievalMode, SpaceId } from '../core/types';
import { normaliseTag, normaliseTags, validateMemoryPatch, validateNewMemory, validateStatus, type ValidMemoryInput } from '../core/validate';
import type { MnemographDb } from '../db/db';
import {
  addFeedbackRow,
  bulkGetMemories,
  countSession,
  getMemoryRow,
  getSetting,
  getVectorRow,
  insertMemories,
  insertMemory,
  listFeedback,
  loadLiveFeatures,
  modelsInSpace,
  modifyMemory,
  putSetting,
  replaceVectorsIfUnchanged,
  restoreMemoryRow,
  setMemoryStatus,
  tombstoneMemory,
  vectorRowsOf,
} from '../db/repo';
import type { FeedbackRow, MemoryRow, VectorRow } from '../db/schema';
import type { EngineClient } from '../bridge/engine-bridge';
import type { EngineDoc, EngineSnapshot } from '../protocol/engine';
import { prepareForEmbedding, type Embedder } from '../embed/types';
import { explainHit } from './explain';
import {
  isEncoderSpace,
  copyFeatures,
  embedderFeaturizer,
  featureRows,
  isSpaceFeaturizer,
  semanticOf,
  type FeaturizedItem,
  type SerializedFeatures,
  type SpaceFeaturizer,
} from './featurizer';
import { SESSION_IDLE_MS, SESSION_SETTING, SessionClock, sessionPositions, type SessionState } from './session';
import { formatReinforceLine, formatSuppressLine, toFeedbackEvent, validateFeedback } from './feedback';

export { formatReinforceLine, formatSuppressLine, toFeedbackEvent };
import type {
  AddMemoryInput,
  DivergenceView,
  FeedbackInput,
  ImportMemoryInput,
  ImportOptions,
  RecallQuery,
  RecallView,
  SearchOptions,
  SearchResultView,
  UpdateMemoryInput,
} from './types';

/** The space the encoder's vectors live in (seed 002: E1 = the general semantic space). */
export const PRIMARY_SPACE: SpaceId = 'E1';
export const MAX_TOP_K = 200;
export const DEFAULT_TOP_K = 20;

/** Settings keys the services own. */
export const SETTING_KEYS = {
  similarity: 'similarityConfig',
  recallDefaults: 'recallDefaults',
  evaluator: 'lateralEvaluator',
  session: SESSION_SETTING,
} as const;

export interface ServiceDeps {
  db: MnemographDb;
  embedder: Embedder;
  /** Computes the thirteen spaces. Default: the embedder itself when it can (the embed bridge), else E1-E4 only. */
  featurizer?: SpaceFeaturizer;
  /** A session ends after this long without a capture or recall (default 30 min). */
  sessionIdleMs?: number;
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

/** What one tab tells the others (their engines follow; lists follow by Dexie live queries). */
interface ChangeMessage {
  /** Memories written: re-read and re-index them. */
  ids?: MemoryId[];
  /** A stored feedback event: apply it to the engine's feedback state. */
  feedback?: FeedbackRow;
  /** A settings key changed (similarity config, recall defaults): re-read it. */
  setting?: string;
}

/**
 * The engine's doc for a memory. `features` (every space, E1 included, serialised) replace the engine's spaces of
 * the memory; undefined leaves them as they are (a status or tag change).
 */
export function toIndexDoc(m: Memory, features?: SerializedFeatures): EngineDoc {
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
    sessionId: m.sessionId,
    suggestedTags: m.suggestedTags,
    ...(features ? { features } : {}),
  };
}

/** Derived tags offered as suggestions: never one the memory already has. */
export function suggestTags(text: string, tags: readonly string[]): string[] {
  return deriveTags(text, { exclude: tags });
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

export class MnemographServices {
  readonly db: MnemographDb;
  readonly engine: EngineClient;
  readonly embedder: Embedder;
  readonly featurizer: SpaceFeaturizer;
  private readonly now: () => number;
  private readonly newId: (atMs?: number) => string;
  private readonly onIndexError: (e: AppError) => void;
  private readonly hybridConfig?: Partial<HybridConfig>;
  private readonly session: SessionClock;
  /** The session id was given: it may already hold memories (their count is the next position). */
  private sessionReady: Promise<void>;
  /** Mode each id was last returned in by recall() (stored with its feedback). */
  private readonly lastModes = new Map<MemoryId, RetrievalMode>();
  private divergenceState: DivergenceView | null = null;
  private readonly divergenceListeners = new Set<(d: DivergenceView | null) => void>();

  constructor(deps: ServiceDeps) {
    this.db = deps.db;
    this.embedder = deps.embedder;
    this.featurizer = deps.featurizer ?? (isSpaceFeaturizer(deps.embedder) ? deps.embedder : embedderFeaturizer(deps.embedder));
    this.now = deps.now ?? Date.now;
    this.newId = deps.newId ?? ((at) => (at === undefined ? uuidv7() : uuidv7At(at)));
    const given = deps.sessionId;
    this.session = new SessionClock(given ?? this.newId(), this.now(), () => this.newId(), deps.sessionIdleMs ?? SESSION_IDLE_MS);
    this.sessionReady = given
      ? countSession(this.db, given).then(
          (n) => this.session.startAt(n),
          () => undefined,
        )
      : Promise.resolve();
    this.hybridConfig = deps.hybridConfig;
    this.onIndexError = deps.onIndexError ?? ((e) => console.error('[mnemograph] index update failed; it will be rebuilt on restart', e));
    this.engine = deps.engine(() => this.snapshot());
    // Lists follow other tabs through Dexie's live queries; the engine follows through this channel.
    if (typeof BroadcastChannel !== 'undefined' && deps.crossTab !== false) {
      this.channel = new BroadcastChannel(`mnemograph-changes:${this.db.name}`);
      this.channel.onmessage = (ev: MessageEvent<ChangeMessage>) => {
        const msg = ev.data;
        if (!msg || typeof msg !== 'object') return;
        const follow = (fn: () => Promise<unknown>) => {
          this.syncing = this.syncing.then(fn).then(
            () => undefined,
            (e) => this.onIndexError(this.db.fail(e)),
          );
        };
        const ids = msg.ids;
        if (Array.isArray(ids) && ids.length > 0 && ids.every((x) => typeof x === 'string')) follow(() => this.syncFromDb(ids));
        if (msg.feedback && typeof msg.feedback.memoryId === 'string') {
          const row = msg.feedback;
          follow(() => this.engine.recordFeedback(toFeedbackEvent(row)));
        }
        if (msg.setting === SETTING_KEYS.similarity) follow(async () => this.engine.setSimilarityConfig(await this.getSimilarityConfig()));
        if (msg.setting === SETTING_KEYS.recallDefaults) follow(async () => this.engine.setRecallDefaults(await this.getRecallDefaults()));
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

  /** The current session id (a new one after SESSION_IDLE_MS without activity). */
  get sessionId(): string {
    return this.session.peek(this.now()).id;
  }

  /** The current session (id, start, last activity, next position). */
  sessionState(): SessionState {
    return this.session.peek(this.now());
  }

  /** Producers whose rows are current: the encoder for E1/E5/E10, the lexical featurizers for the rest. */
  private producers(): { encoder: string; lexical: string } {
    return { encoder: this.embedder.info().id, lexical: this.featurizer.lexicalId() };
  }

  private isCurrent(row: VectorRow, p = this.producers()): boolean {
    return row.model === (isEncoderSpace(row.space) ? p.encoder : p.lexical);
  }

  /**
   * Everything a fresh engine needs, read from the database: every live memory with every
   * current vector row (all spaces, one getAll per table), the feedback log, and the settings.
   */
  async snapshot(): Promise<EngineSnapshot> {
    const info = this.embedder.info();
    const p = this.producers();
    const [loaded, feedback, similarity, recallDefaults, evaluator] = await Promise.all([
      loadLiveFeatures(this.db, (row) => this.isCurrent(row, p)),
      listFeedback(this.db),
      this.getSimilarityConfig(),
      this.getRecallDefaults(),
      this.storedEvaluator(),
    ]);
    return {
      // a memory without a current E1 (model change) keeps its lexical spaces: found by them meanwhile
      docs: loaded.map((l) => toIndexDoc(l.memory, l.spaces)),
      dim: info.dim,
      config: this.hybridConfig,
      similarity,
      recallDefaults,
      feedback: feedback.map(toFeedbackEvent),
      evaluator,
    };
  }

  /**
   * Features of many items in batches of `batch` (outside any transaction), E1 checked.
   * Progress after each batch; abortable.
   */
  private async featurizeAll(
    items: Parameters<SpaceFeaturizer['featurize']>[0],
    opts: { signal?: AbortSignal; batch?: number; onBatch?: (done: number) => void } = {},
  ): Promise<FeaturizedItem[]> {
    const { dim } = this.embedder.info();
    const batch = Math.max(1, opts.batch ?? items.length);
    const out: FeaturizedItem[] = [];
    for (let i = 0; i < items.length; i += batch) {
      if (opts.signal?.aborted) throw new AppError('ABORTED');
      const part = items.slice(i, i + batch);
      const got = await this.featurizer.featurize(part, opts.signal);
      if (!Array.isArray(got) || got.length !== part.length)
        throw new AppError('INVALID_EMBEDDING', undefined, `expected ${part.length} feature sets, got ${got?.length}`);
      for (const item of got) {
        semanticOf(item.spaces, dim); // refuses a missing, mis-sized or non-finite E1 before anything is stored
        out.push(item);
      }
      opts.onBatch?.(out.length);
    }
    if (opts.signal?.aborted) throw new AppError('ABORTED');
    return out;
  }

  /**
   * After a committed write: the engine follows, and other tabs are told which ids changed so
   * their engines follow too. A failure here never undoes the write.
   */
  private async index(ids: MemoryId[], fn: () => Promise<void>, also: Omit<ChangeMessage, 'ids'> = {}): Promise<void> {
    this.broadcast({ ...(ids.length ? { ids } : {}), ...also });
    try {
      await fn();
    } catch (e) {
      this.onIndexError(e instanceof AppError ? e : new AppError('WORKER_CRASHED', undefined, String(e)));
    }
  }

  private broadcast(msg: ChangeMessage): void {
    if (Object.keys(msg).length === 0) return;
    try {
      this.channel?.postMessage(msg);
    } catch {
      /* a closed channel: this instance is being disposed */
    }
  }

  /** Another tab changed these memories: re-read them and bring this tab's engine up to date. */
  async syncFromDb(ids: MemoryId[]): Promise<void> {
    const rows = await bulkGetMemories(this.db, ids);
    await Promise.all(
      rows.map(async (row, i) => {
        if (!row || row.deletedAt !== null) return this.index([], () => this.engine.remove(ids[i]));
        const spaces = await this.storedFeatures(row.id);
        return this.index([], () => this.engine.upsert(toIndexDoc(row, spaces)));
      }),
    );
  }

  private buildMemory(v: ValidMemoryInput, truncated: boolean, t: number, sessionId: string): Memory {
    const createdAt = v.createdAt ?? t;
    const memory: Memory = {
      // a past createdAt gets an id carrying that time, so ids keep sorting by when things happened
      id: this.newId(v.createdAt),
      text: v.text,
      tags: v.tags,
      suggestedTags: suggestTags(v.text, v.tags),
      importance: v.importance,
      ...(v.source !== undefined ? { source: v.source } : {}),
      ...(v.media !== undefined ? { media: v.media } : {}),
      createdAt,
      updatedAt: t,
      validFrom: v.validFrom ?? createdAt,
      validTo: v.validTo,
      sessionId,
      status: 'active',
      deletedAt: null,
      embedTruncated: truncated,
    };
    if (memory.validTo !== null && memory.validTo < memory.validFrom)
      throw new AppError('INVALID_OPTION', 'validTo must not be before validFrom.');
    return memory;
  }

  /** Session id and E4 position for a capture at `t` (an import may bring its own session). */
  private async placeInSession(t: number, own?: string, counts?: Map<string, number>): Promise<{ id: string; position: number }> {
    await this.sessionReady;
    if (own === undefined || own === this.session.id) return this.session.take(t);
    const c = counts ?? new Map<string, number>();
    if (!c.has(own)) c.set(own, await countSession(this.db, own));
    const position = c.get(own)!;
    c.set(own, position + 1);
    return { id: own, position };
  }

  private persistSession(): Promise<void> {
    return putSetting(this.db, SETTING_KEYS.session, this.session.state()).catch(() => undefined);
  }

  /**
   * Validate -> featurize all spaces (outside any transaction) -> ONE transaction writing the
   * memory (with its suggested tags) and one row per present space -> engine upsert -> the
   * divergence of the new memory from the recent window (see latestDivergence()).
   */
  async addMemory(input: AddMemoryInput): Promise<Memory> {
    const v = validateNewMemory(input);
    const t = this.now();
    const place = await this.placeInSession(t);
    const createdAt = v.createdAt ?? t;
    const [item] = await this.featurizeAll([{ text: v.text, createdAt, sessionPosition: place.position, media: v.media }]);
    const memory = this.buildMemory(v, item.truncated, t, place.id);
    await insertMemory(this.db, memory, featureRows(memory.id, item.spaces, this.producers()));
    await this.persistSession();
    const forDivergence = copyFeatures(item.spaces);
    await this.index([memory.id], () => this.engine.upsert(toIndexDoc(memory, item.spaces)));
    await this.refreshDivergence({ trigger: 'capture', features: forDivergence, memoryId: memory.id });
    return memory;
  }

  /**
   * Imports many memories (e.g. the sample collection) all or nothing: every input is validated
   * first (INVALID_OPTION / EMPTY_TEXT / INVALID_IMPORTANCE name the item), then featurized in
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
    if (opts.signal?.aborted) throw new AppError('ABORTED');
    const t = this.now();
    const counts = new Map<string, number>();
    const places: { id: string; position: number }[] = [];
    for (const v of valid) places.push(await this.placeInSession(t, v.sessionId, counts));
    const items = valid.map((v, i) => ({ text: v.text, createdAt: v.createdAt ?? t, sessionPosition: places[i].position, media: v.media }));
    const got = await this.featurizeAll(items, {
      signal: opts.signal,
      batch: opts.batchSize ?? 32,
      onBatch: (done) => opts.onProgress?.({ embedded: done, total: items.length }),
    });
    const memories = valid.map((v, i) => this.buildMemory(v, got[i].truncated, t, places[i].id));
    const ids = this.producers();
    await insertMemories(
      this.db,
      memories,
      memories.flatMap((m, i) => featureRows(m.id, got[i].spaces, ids)),
    );
    await this.persistSession();
    await this.index(
      memories.map((m) => m.id),
      () => this.engine.upsertMany(memories.map((m, i) => toIndexDoc(m, got[i].spaces))),
    );
    return memories;
  }

  /**
   * The backfill: featurizes every live memory whose features are missing or stale (no E1 from
   * the current encoder, or no E2 row from the current lexical featurizers: rows written by an
   * older release, or before a model change) and indexes it. Every space is recomputed and the
   * old rows replaced. Batches of `batchSize` (default 32), each in its own transaction; a memory
   * edited meanwhile keeps its own features; abortable; returns how many were filled.
   */
  async featurizeMissing(opts: ImportOptions = {}): Promise<number> {
    const p = this.producers();
    const [e1, e2, live] = await Promise.all([
      modelsInSpace(this.db, 'E1'),
      modelsInSpace(this.db, 'E2'),
      this.db.memories.toArray().then((rows) => rows.filter((m) => m.deletedAt === null)),
    ]);
    const missing = live.filter((m) => e1.get(m.id) !== p.encoder || e2.get(m.id) !== p.lexical);
    if (missing.length === 0) return 0;
    const positions = sessionPositions(live);
    const batch = Math.max(1, opts.batchSize ?? 32);
    let done = 0;
    for (let i = 0; i < missing.length; i += batch) {
      if (opts.signal?.aborted) throw new AppError('ABORTED');
      const part = missing.slice(i, i + batch);
      const got = await this.featurizeAll(
        part.map((m) => ({ text: m.text, createdAt: m.createdAt, sessionPosition: positions.get(m.id) ?? 0, media: m.media })),
        { signal: opts.signal },
      );
      const written = await replaceVectorsIfUnchanged(
        this.db,
        part.map((m, j) => ({ memoryId: m.id, rows: featureRows(m.id, got[j].spaces, p), expectedText: m.text })),
      );
      const byId = new Map(part.map((m, j) => [m.id, got[j]]));
      await this.index(
        written.map((m) => m.id),
        () => this.engine.upsertMany(written.map((m) => toIndexDoc(m, byId.get(m.id)!.spaces))),
      );
      done += written.length;
      opts.onProgress?.({ embedded: i + part.length, total: missing.length });
    }
    return done;
  }

  /** The former name of featurizeMissing (E1 only then). */
  embedMissing(opts: ImportOptions = {}): Promise<number> {
    return this.featurizeMissing(opts);
  }

  async updateMemory(id: MemoryId, patch: UpdateMemoryInput): Promise<Memory> {
    const p = validateMemoryPatch(patch);
    const current = await this.getMemory(id);
    const textChanged = p.text !== undefined && p.text !== current.text;
    const mediaChanged = p.media !== undefined && JSON.stringify(p.media) !== JSON.stringify(current.media ?? []);
    let got: FeaturizedItem | null = null;
    if (textChanged || mediaChanged) {
      // outside any transaction; the memory keeps its time and session position
      const position = await sessionPositionOf(this.db, current);
      [got] = await this.featurizeAll([
        { text: p.text ?? current.text, createdAt: current.createdAt, sessionPosition: position, media: p.media ?? current.media },
      ]);
    }
    const t = this.now();
    const next = await modifyMemory(
      this.db,
      id,
      (row) => {
        const m: Memory = { ...row, ...p, updatedAt: t } as Memory;
        if (p.source === undefined && 'source' in p) delete m.source;
        if (got) m.embedTruncated = got.truncated;
        if (textChanged) m.suggestedTags = suggestTags(m.text, m.tags);
        else if (p.tags) m.suggestedTags = row.suggestedTags.filter((s) => !m.tags.includes(s));
        if (m.validTo !== null && m.validTo < m.validFrom) throw new AppError('INVALID_OPTION', 'validTo must not be before validFrom.');
        return m;
      },
      got ? featureRows(id, got.spaces, this.producers()) : undefined,
      { replaceVectors: got !== null },
    );
    await this.index([id], () => this.engine.upsert(toIndexDoc(next, got?.spaces)));
    return next;
  }

  /** Tombstones the memory (restoreMemory undoes it) and drops it from the index. */
  async deleteMemory(id: MemoryId): Promise<void> {
    await tombstoneMemory(this.db, id, this.now());
    await this.index([id], () => this.engine.remove(id));
  }

  async restoreMemory(id: MemoryId): Promise<Memory> {
    const m = await restoreMemoryRow(this.db, id, this.now());
    const spaces = await this.storedFeatures(id);
    await this.index([id], () => this.engine.upsert(toIndexDoc(m, spaces)));
    return m;
  }

  /** Quarantine, archive or re-activate. Quarantined / archived memories are hidden from search unless asked for. */
  async setStatus(id: MemoryId, status: MemoryStatus): Promise<Memory> {
    const s = validateStatus(status);
    const m = await setMemoryStatus(this.db, id, s, this.now());
    await this.index([id], () => this.engine.upsert(toIndexDoc(m)));
    return m;
  }

  /** Replaces the memory's tags (normalised); suggestions it now has are no longer offered. */
  async setTags(id: MemoryId, tags: string | string[]): Promise<Memory> {
    const normalised = normaliseTags(tags);
    return this.changeTags(id, () => normalised);
  }

  /** Moves one suggested tag into the memory's tags. INVALID_OPTION when it is not a suggestion. */
  async acceptSuggestedTag(id: MemoryId, tag: string): Promise<Memory> {
    if (typeof tag !== 'string') throw new AppError('INVALID_OPTION', 'A tag must be text.');
    const t = normaliseTag(tag);
    return this.changeTags(id, (row) => {
      if (!row.suggestedTags.includes(t)) throw new AppError('INVALID_OPTION', `"${tag}" is not a suggested tag of this memory.`);
      return row.tags.includes(t) ? row.tags : [...row.tags, t];
    });
  }

  private async changeTags(id: MemoryId, next: (row: MemoryRow) => string[]): Promise<Memory> {
    const t = this.now();
    const m = await modifyMemory(this.db, id, (row) => {
      const tags = validateMemoryPatch({ tags: next(row) }).tags ?? [];
      return { ...row, tags, suggestedTags: row.suggestedTags.filter((s) => !tags.includes(s)), updatedAt: t };
    });
    await this.index([id], () => this.engine.upsert(toIndexDoc(m)));
    return m;
  }

  /** Rejects NOT_FOUND for a missing or deleted memory (unless includeDeleted). */
  async getMemory(id: MemoryId, opts: { includeDeleted?: boolean } = {}): Promise<Memory> {
    const m = await getMemoryRow(this.db, id);
    if (!m || (m.deletedAt !== null && !opts.includeDeleted)) throw new AppError('NOT_FOUND');
    return m;
  }

  /** Embeds the bounded prefix of `text` (search's query vector); checks dimension and finiteness. */
  private async embedOne(text: string, signal?: AbortSignal): Promise<Float32Array> {
    const [vector] = await this.embedder.embed([prepareForEmbedding(text).text], signal);
    const { dim } = this.embedder.info();
    if (!vector || vector.length !== dim) throw new AppError('INVALID_EMBEDDING', `The encoder returned ${vector?.length ?? 0} dimensions; expected ${dim}.`);
    for (let i = 0; i < vector.length; i++) if (!Number.isFinite(vector[i])) throw new AppError('INVALID_EMBEDDING');
    return vector;
  }

  /**
   * The full recall: the query featurized in all content spaces, then the engine's pipeline
   * (hybrid + spaces + profile + feedback + lateral + associative hops) with `options` over the
   * saved defaults. Each view carries the result (mode, chain, lateral fields, per-space sims and
   * relevance, the hybrid explanation) and its memory. Also refreshes latestDivergence() for the
   * query. Invalid options reject with INVALID_OPTION naming the option. Empty query -> [].
   */
  async recall(query: string | RecallQuery, options: RecallOptionsInput = {}, signal?: AbortSignal): Promise<RecallView[]> {
    const q = typeof query === 'string' ? { text: query } : query;
    if (!q || typeof q.text !== 'string') throw new AppError('INVALID_OPTION', 'The query must be text.');
    if (q.tags !== undefined && (!Array.isArray(q.tags) || q.tags.some((t) => typeof t !== 'string')))
      throw new AppError('INVALID_OPTION', 'Query tags must be a list of strings.');
    if (options === null || typeof options !== 'object') throw new AppError('INVALID_OPTION', 'Recall options must be an object.');
    resolveRecallOptions({ ...(await this.getRecallDefaults()), ...options }); // refuse bad options before any work
    if (signal?.aborted) throw new AppError('ABORTED');
    if (!q.text.trim()) return [];
    this.session.touch(this.now());
    const features = await this.featurizer.featurizeQuery(q.text, signal);
    if (signal?.aborted) throw new AppError('ABORTED');
    semanticOf(features, this.embedder.info().dim);
    const tags = q.tags ? normaliseTags(q.tags) : undefined;
    const outcome = await this.engine.recall({ text: q.text, features, ...(tags ? { tags } : {}) }, options, signal);
    // the evaluator counted the lateral results it returned: save its state (a failure never fails the recall)
    if (outcome.evaluator) await putSetting(this.db, SETTING_KEYS.evaluator, outcome.evaluator).catch((e) => this.onIndexError(this.db.fail(e)));
    const rows = await bulkGetMemories(this.db, outcome.results.map((r) => r.id));
    if (signal?.aborted) throw new AppError('ABORTED');
    const out: RecallView[] = [];
    outcome.results.forEach((result, i) => {
      const memory = rows[i];
      if (!memory || memory.deletedAt !== null) return;
      this.lastModes.set(result.id, result.mode);
      out.push({ result, memory, explanation: explainHit(result) });
    });
    if (this.lastModes.size > 2000) this.lastModes.delete(this.lastModes.keys().next().value as MemoryId);
    await this.refreshDivergence({ trigger: 'search', features, query: q.text });
    return out;
  }

  /**
   * The plain hybrid search (BM25 + E1), as before the spaces: cheap, and with `semantic: false`
   * it needs no encoder (while the model loads). recall() is the full pipeline.
   */
  async search(query: string, options?: SearchOptions, signal?: AbortSignal): Promise<SearchResultView[]> {
    const opts = validateSearchOptions(options);
    if (typeof query !== 'string') throw new AppError('INVALID_OPTION', 'The query must be text.');
    if (signal?.aborted) throw new AppError('ABORTED');
    if (!query.trim()) return [];
    const vector = opts.semantic === false ? null : await this.embedOne(query, signal);
    if (signal?.aborted) throw new AppError('ABORTED');
    const { semantic: _semantic, ...engineOpts } = opts;
    // A dense scan returns its top candidates however dissimilar. A hit that matched no word is
    // shown only on meaning: a cosine > 0 and a fused score > 0 (min-max fusion gives 0 to the
    // weakest candidate of every list, i.e. "less like the query than everything else").
    const hits = (await this.engine.search({ text: query, vector }, engineOpts, signal)).filter(
      (h) => h.why.bm25 > 0 || h.why.matchedTerms.length > 0 || (h.why.cosine > 0 && h.score > 0),
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

  // ---- divergence -------------------------------------------------------------------------

  /** The divergence of the last capture or recall from the recent window (null before any). */
  latestDivergence(): DivergenceView | null {
    return this.divergenceState;
  }

  /** Calls fn on every new divergence result; returns the unsubscribe function. */
  subscribeDivergence(fn: (d: DivergenceView | null) => void): () => void {
    this.divergenceListeners.add(fn);
    return () => this.divergenceListeners.delete(fn);
  }

  /** Forget the current divergence (the banner was dismissed). */
  clearDivergence(): void {
    this.setDivergence(null);
  }

  private setDivergence(d: DivergenceView | null): void {
    this.divergenceState = d;
    for (const fn of [...this.divergenceListeners]) fn(d);
  }

  /**
   * Compares `features` with the recent window (the current session within the last
   * recentWindowHours, else that window), content spaces only; a failure is reported to
   * onIndexError and never fails the capture or recall that triggered it.
   */
  private async refreshDivergence(src: { trigger: 'capture' | 'search'; features: SerializedFeatures; memoryId?: MemoryId; query?: string }): Promise<void> {
    try {
      const at = this.now();
      const out = await this.engine.divergence({ features: src.features, now: at, sessionId: this.session.peek(at).id, excludeId: src.memoryId });
      this.setDivergence({
        trigger: src.trigger,
        at,
        ...(src.memoryId ? { memoryId: src.memoryId } : {}),
        ...(src.query !== undefined ? { query: src.query } : {}),
        alerts: out.alerts,
        recentIds: out.recent.map((r) => r.id),
        recent: out.recent.map((r) => ({ id: r.id, label: firstLine(r.text), createdAt: r.createdAt })),
      });
    } catch (e) {
      this.onIndexError(e instanceof AppError ? e : new AppError('WORKER_CRASHED', undefined, String(e)));
    }
  }

  // ---- feedback ---------------------------------------------------------------------------

  /**
   * Stores a feedback event (valence -100..100) and hands it to the engine's feedback state and
   * lateral evaluator. Prefer reinforce() / suppress(), which also return the confirmation text.
   */
  async recordFeedback(input: FeedbackInput): Promise<FeedbackRow> {
    return (await this.storeFeedback(validateFeedback(input))).row;
  }

  private async storeFeedback(f: FeedbackInput): Promise<{ row: FeedbackRow; wasLateral: boolean }> {
    const mode = f.mode ?? this.lastModes.get(f.memoryId);
    const row: FeedbackRow = {
      id: this.newId(),
      memoryId: f.memoryId,
      kind: f.kind,
      at: this.now(),
      ...(f.valence !== undefined ? { valence: f.valence } : {}),
      ...(f.reason !== undefined ? { reason: f.reason } : {}),
      ...(mode !== undefined ? { mode } : {}),
    };
    await addFeedbackRow(this.db, row); // the log is the truth; the engine follows it
    this.broadcast({ feedback: row });
    let wasLateral = false;
    try {
      const out = await this.engine.recordFeedback(toFeedbackEvent(row));
      wasLateral = out.wasLateral;
      await putSetting(this.db, SETTING_KEYS.evaluator, out.evaluator);
    } catch (e) {
      this.onIndexError(e instanceof AppError ? e : new AppError('WORKER_CRASHED', undefined, String(e)));
    }
    return { row, wasLateral };
  }

  /**
   * reinforce(id, valence -100..100): future rankings lift the memory (factor 1 + 0.5 tanh(net/200));
   * counted by the lateral evaluator when it was returned as a lateral result. Returns the
   * seed's confirmation line, e.g. "👍 Reinforced 'm-1' with valence=50 (lateral result — feedback recorded)".
   */
  async reinforce(id: MemoryId, valence: number): Promise<string> {
    if (typeof id !== 'string' || !id) throw new AppError('INVALID_OPTION', 'Feedback needs a memory id.');
    validateValence(valence);
    const { wasLateral } = await this.storeFeedback({ memoryId: id, kind: 'reinforce', valence });
    return formatReinforceLine(id, valence, wasLateral);
  }

  /**
   * suppress(id, reason): demoted (x0.2) and never lateral or associative again until a positive
   * reinforcement. Returns "🚫 Suppressed '<id>' (<reason>)" (+ the lateral note).
   */
  async suppress(id: MemoryId, reason?: string): Promise<string> {
    if (typeof id !== 'string' || !id) throw new AppError('INVALID_OPTION', 'Feedback needs a memory id.');
    if (reason !== undefined && (typeof reason !== 'string' || reason.length > 500))
      throw new AppError('INVALID_OPTION', 'A suppression reason must be text of at most 500 characters.');
    const why = reason?.trim() || undefined;
    const { wasLateral } = await this.storeFeedback({ memoryId: id, kind: 'suppress', ...(why ? { reason: why } : {}) });
    return formatSuppressLine(id, why, wasLateral);
  }

  /** The lateral evaluator's status (enabled, threshold, samples, LUR, LSR, LHI, last action). */
  lateralStatus(): Promise<LateralStatus> {
    return this.engine.lateralStatus();
  }

  /** Turns lateral retrieval back on after an auto-disable (fresh counters). */
  async reEnableLateral(): Promise<LateralStatus> {
    await putSetting(this.db, SETTING_KEYS.evaluator, await this.engine.reEnableLateral());
    return this.engine.lateralStatus();
  }

  // ---- settings ---------------------------------------------------------------------------

  /** The saved similarity config (defaults where unset; an invalid stored value falls back with a warning). */
  async getSimilarityConfig(): Promise<SimilarityConfig> {
    const raw = await getSetting<unknown>(this.db, SETTING_KEYS.similarity);
    if (raw === undefined) return structuredClone(DEFAULT_SIMILARITY_CONFIG) as SimilarityConfig;
    return loadSimilarityConfig(raw, (m) => console.warn(`[mnemograph] ${m}`));
  }

  /** Validates (INVALID_CONFIG with the validator's message), stores, and applies it to the engine. */
  async saveSimilarityConfig(config: SimilarityConfig): Promise<SimilarityConfig> {
    if (!config || typeof config !== 'object') throw new AppError('INVALID_CONFIG', 'The similarity config must be an object.');
    assertValidSimilarityConfig(config);
    const copy = structuredClone(config);
    await putSetting(this.db, SETTING_KEYS.similarity, copy);
    await this.index([], () => this.engine.setSimilarityConfig(copy), { setting: SETTING_KEYS.similarity });
    return copy;
  }

  async resetSimilarityConfig(): Promise<SimilarityConfig> {
    await this.deleteSetting(SETTING_KEYS.similarity);
    const d = structuredClone(DEFAULT_SIMILARITY_CONFIG) as SimilarityConfig;
    await this.index([], () => this.engine.setSimilarityConfig(d), { setting: SETTING_KEYS.similarity });
    return d;
  }

  /** The saved default recall options (explicit ones only; {} = every profile default). */
  async getRecallDefaults(): Promise<RecallOptionsInput> {
    const raw = await getSetting<unknown>(this.db, SETTING_KEYS.recallDefaults);
    if (raw === undefined || raw === null) return {};
    try {
      resolveRecallOptions(raw as RecallOptionsInput);
      return raw as RecallOptionsInput;
    } catch (e) {
      console.warn('[mnemograph] the saved recall defaults are invalid and were ignored:', e);
      return {};
    }
  }

  /** Validates (INVALID_OPTION naming the option), stores, and makes them the engine's defaults. */
  async saveRecallDefaults(input: RecallOptionsInput): Promise<RecallOptionsInput> {
    resolveRecallOptions(input);
    const clean = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as RecallOptionsInput;
    await putSetting(this.db, SETTING_KEYS.recallDefaults, clean);
    await this.index([], () => this.engine.setRecallDefaults(clean), { setting: SETTING_KEYS.recallDefaults });
    return clean;
  }

  private async deleteSetting(key: string): Promise<void> {
    try {
      await this.db.settings.delete(key);
    } catch (e) {
      throw this.db.fail(e);
    }
  }

  /** The saved evaluator state, or null (none, or corrupt: then a fresh evaluator starts). */
  private async storedEvaluator(): Promise<LateralEvaluatorState | null> {
    const raw = await getSetting<unknown>(this.db, SETTING_KEYS.evaluator);
    if (raw === undefined || raw === null) return null;
    try {
      return LateralEvaluator.fromJSON(raw).toJSON();
    } catch (e) {
      console.warn('[mnemograph] the saved lateral evaluator state was invalid; starting afresh:', e);
      return null;
    }
  }

  /** The current spaces of one memory (E1 included), from the database. */
  private async storedFeatures(id: MemoryId): Promise<SerializedFeatures> {
    const p = this.producers();
    const spaces: SerializedFeatures = {};
    for (const row of await vectorRowsOf(this.db, id)) if (row.dtype === 'space' && this.isCurrent(row, p)) spaces[row.space] = row.data;
    return spaces;
  }

  dispose(): void {
    this.channel?.close();
    this.engine.dispose();
    this.db.close();
    this.divergenceListeners.clear();
  }
}

function firstLine(text: string, max = 80): string {
  const line = text.split('\n').find((l) => l.trim()) ?? '';
  const t = line.trim();
  return t.length <= max ? t : `${t.slice(0, max - 1)}…`;
}

async function sessionPositionOf(db: MnemographDb, m: Memory): Promise<number> {
  try {
    const same = await db.memories.where('sessionId').equals(m.sessionId).toArray();
    return sessionPositions(same.some((x) => x.id === m.id) ? same : [...same, m]).get(m.id) ?? 0;
  } catch (e) {
    throw db.fail(e);
  }
}
