// The search engine's logic as a plain class, so it can be tested (and run on the main thread
// as a fallback) without Comlink. engine.worker.ts only exposes it.
//
// It holds everything recall needs, all rebuilt from the database on every (re)start:
//   HybridIndex (BM25 + E1), SpaceIndex (every memory's thirteen spaces), a NeighbourMatrix
//   kept in step with the vector store's writes (liveMatrix), FeedbackState (from the stored feedback events), the
//   LateralEvaluator (its state persisted by the services), the SimilarityConfig and the
//   default RecallOptions. Features arrive serialised (serializeSpace buffers, transferred).

import { repeated, wireLateInteraction } from './engine-late';
import { AppError, toEnvelope } from '../src/core/errors';
import { withEncoderMinCosine } from './engine-encoder-scale';
import { HybridIndex, type HybridQuery, type IndexDoc } from '../src/core/hybrid';
import { applyTime, calibrationFor, runPipeline, SessionOrder, SpaceIndex, type PipelineContext, type RankingConfig } from '../src/core/pipeline';
import {
  FeedbackState,
  LateralEvaluator,
  liveMatrix,
  MAX_DECAY_TAU_DAYS,
  resolveRecallOptions,
  type FeedbackEvent,
  type LateralEvaluatorState,
  type LateralStatus,
  type NeighbourMatrix,
  type RecallOptionsInput,
} from '../src/core/recall';
import { assertValidSimilarityConfig, DEFAULT_SIMILARITY_CONFIG, deserializeFeatures, type SerializedFeatures, type SimilarityConfig, type SpaceFeatures } from '../src/core/spaces';
import type { MemoryId, ScoredHit } from '../src/core/types';
import type { EngineDivergenceOutcome, EngineDivergenceQuery, EngineDoc, EngineFeedbackEvent, EngineFeedbackOutcome, EngineJudgeSource, EngineLoadOptions, EngineModelSource, EngineRecallOutcome, EngineRecallQuery, EngineSearchOptions, EngineStats } from '../src/protocol/engine';
import { firstLine } from '../src/protocol/engine';
import { BackgroundCommunities } from './communities-background';
import { escalate } from './engine-deep';
import { iterate } from './engine-iterative';
import { recentDivergence } from './engine-divergence';
import { EntityGraph } from './entity-graph';
import { SessionRateLimiter } from '../src/core/deep';
import { LaterMap, type Meta, type MetaColumns } from './engine-meta';

/** Lets queued messages (a cancel sent after this search) run before the search does its work. */
const yieldToEventLoop = (): Promise<void> => new Promise((r) => setTimeout(r, 0));


export class EngineCore {
  private index: HybridIndex | null = null;
  private spaces = new SpaceIndex();
  private entities = new EntityGraph();
  private readonly metas = new LaterMap<MemoryId, Meta>(); // a snapshot's meta is filled in on first use (engine-meta.ts)
  private get meta(): Map<MemoryId, Meta> { return this.metas.map; } // prettier-ignore
  private matrix: NeighbourMatrix | null = null;
  /** Louvain communities for deep search, computed in the background after a start and after writes (communities-background.ts), kept across writes until the next are ready. */
  readonly communities = new BackgroundCommunities(() => (this.index ? { matrix: (this.matrix ??= liveMatrix(this.index.vectors, (id) => this.meta.get(id)?.sessionId || undefined)), entities: this.entities } : null), { lazy: true });
  /** What one escalation reads: asked at its first community lookup (after the trigger), then the same map for the rest of it. */
  private escalationCommunities(): () => Map<MemoryId, number> | undefined {
    let got: Map<MemoryId, number> | null | undefined;
    return () => (got === undefined ? (got = this.communities.forEscalation()) : got) ?? undefined;
  }
  private sessions: SessionOrder | null = null; // session neighbours (the session-context stage), built on demand, kept in step with writes
  private readonly deepLimiter = new SessionRateLimiter(5);
  private feedbackEvents: FeedbackEvent[] = [];
  private feedback = new FeedbackState();
  private evaluator: LateralEvaluator = LateralEvaluator.forOptions(resolveRecallOptions({}));
  private similarity: SimilarityConfig = DEFAULT_SIMILARITY_CONFIG;
  private recallDefaults: RecallOptionsInput = {};
  /** The encoder of the vectors held (its cosine scale moves the associative step's default). */
  private encoder: string | undefined;
  /** The encoder's calibrated ranking (the hybrid's part is in the index's own config). */
  private ranking: Partial<RankingConfig> = calibrationFor(undefined).ranking;
  private readonly cancelledIds = new Set<number>();
  private searches = 0;
  private recalls = 0;
  private cancelledCount = 0;
  private lastSearchMs = 0;
  private lastRecallMs = 0;
  private lastLoadMs = 0;
  /** false while a staged load attaches stored features (set by engine-api.ts). */
  warm = true;

  /** Replaces everything with `docs` and `opts` (vectors are unit-normalised by the index). */
  load(docs: EngineDoc[], opts: EngineLoadOptions): { size: number } {
    const t0 = performance.now();
    const calibration = calibrationFor(opts.encoder);
    const index = new HybridIndex(opts.dim, { ...calibration.hybrid, ...opts.config }, opts.encoder);
    // E1 is held once, in the hybrid's dense store; the space index reads it from there
    const spaces = new SpaceIndex({ e1: (id) => index.vectorOf(id) });
    const meta = new Map<MemoryId, Meta>();
    const entities = new EntityGraph();
    // validate the settings first: a bad one leaves the old engine in place
    const similarity = opts.similarity ?? DEFAULT_SIMILARITY_CONFIG;
    assertValidSimilarityConfig(similarity);
    const recallDefaults = opts.recallDefaults ?? {};
    const resolved = resolveRecallOptions(recallDefaults);
    const evaluator = opts.evaluator ? LateralEvaluator.fromJSON(opts.evaluator) : LateralEvaluator.forOptions(resolved);
    index.reserve(docs.length); // the dense store sized once: no doubling slack at 100k
    for (const d of docs) this.put(index, spaces, meta, d, entities); // throws on a bad doc: the old index stays in place
    spaces.trim(); // the feature columns without growth slack
    const feedbackEvents = (opts.feedback ?? []) as FeedbackEvent[];
    this.index?.ann.cancel(); // the replaced index's background build (above the threshold) stops
    this.index = index;
    this.spaces = spaces;
    this.entities = entities;
    this.metas.reset(meta);
    this.matrix = this.sessions = null;
    this.communities.reset();
    this.similarity = similarity;
    this.recallDefaults = recallDefaults;
    this.encoder = opts.encoder;
    this.ranking = calibration.ranking;
    this.evaluator = evaluator;
    this.feedbackEvents = [...feedbackEvents];
    this.feedback = FeedbackState.fromEvents(this.feedbackEvents);
    this.lastLoadMs = performance.now() - t0;
    return { size: index.size };
  }

  private put(index: HybridIndex, spaces: SpaceIndex, meta: Map<MemoryId, Meta>, d: EngineDoc, entities: EntityGraph = this.entities): void {
    const { features, ...doc } = d;
    // Features given: they replace all of the memory's spaces, E1 (the hybrid's vector) included;
    // no E1 among them = not embedded by the current encoder. None given: a status or tag change,
    // and the memory keeps the spaces and the vector it has.
    const f: SpaceFeatures = features ? deserializeFeatures(features) : { ...spaces.features(doc.id) };
    index.upsert({ ...doc, vector: f.E1 ?? null });
    if (Object.keys(f).length > 0) spaces.upsert(doc.id, f);
    else spaces.remove(doc.id);
    entities.setFromFeatures(doc.id, f);
    meta.set(doc.id, { createdAt: doc.createdAt, sessionId: doc.sessionId ?? '' });
  }

  upsert(doc: EngineDoc): void {
    this.put(this.require(), this.spaces, this.meta, doc);
    this.communities.changed(); // the matrix follows the store's writes (liveMatrix); the session order this one:
    this.sessions?.set(doc.id, doc.sessionId ?? '', doc.createdAt);
  }

  /** All or nothing: every doc is checked by a scratch pass before the live index changes. */
  upsertMany(docs: EngineDoc[]): void {
    const index = this.require();
    const probe = new HybridIndex(index.dim);
    for (const { features, ...d } of docs) {
      // refuses unreadable features, then checks the fields and the vector cheaply (no text)
      const e1 = features ? deserializeFeatures(features).E1 : this.spaces.features(d.id)?.E1;
      probe.upsert({ ...d, vector: e1 ?? null, text: '', tags: [] } satisfies IndexDoc);
    }
    for (const d of docs) this.put(index, this.spaces, this.meta, d);
    this.sessions = null; // a batch (an import): the session order rebuilt once, when next read
    this.communities.changed();
  }

  remove = (id: MemoryId): void => this.removeMany([id]);

  /** A staged start: the E1 vectors alone first, so dense search works before the other spaces are in. */
  attachVectors(list: { id: MemoryId; features: SerializedFeatures }[]): void {
    const index = this.require();
    for (const { id, features } of list) index.setVector(id, deserializeFeatures(features).E1 ?? null);
    this.matrix = null;
    this.communities.changed();
  }

  /** A staged start (engine-api.ts): the stored features of memories indexed by their words, attached without tokenising again. */
  attachFeatures(list: { id: MemoryId; features: SerializedFeatures }[]): void {
    const index = this.require();
    for (const { id, features } of list) {
      if (!index.has(id)) continue;
      const f = deserializeFeatures(features);
      // E1 usually came first (attachVectors): not quantised a second time
      if (f.E1) index.setVector(id, f.E1);
      if (Object.keys(f).length > 0) this.spaces.upsert(id, f);
      this.entities.setFromFeatures(id, f);
    }
    this.matrix = null;
    this.communities.changed();
  }

  /** The hybrid index itself, for the keyword snapshot (workers/engine-lexical.ts): it packs the words and adopts them into it. */
  get hybrid(): HybridIndex { return this.require(); } // prettier-ignore
  /** Session meta of docs that entered `hybrid` from a keyword snapshot (no tokenising; its columns: filled in on first use, a keyword search needs none); the memory's session when packing one. */
  setMeta(docs: readonly { id: MemoryId; createdAt: number; sessionId?: string }[] | MetaColumns): void {
    if (!Array.isArray(docs)) this.metas.later((m) => (docs as MetaColumns).ids.forEach((id, i) => m.set(id, (docs as MetaColumns).at(i))));
    else for (const d of docs as readonly { id: MemoryId; createdAt: number; sessionId?: string }[]) this.meta.set(d.id, { createdAt: d.createdAt, sessionId: d.sessionId ?? '' });
    this.matrix = this.sessions = null;
    this.communities.changed();
  }
  sessionOf = (id: MemoryId): string => this.meta.get(id)?.sessionId ?? '';

  /** The space index and the entity graph: workers/engine-warm.ts packs them into the engine snapshot and adopts unpacked ones. */
  get built(): { spaces: SpaceIndex; entities: EntityGraph } { return { spaces: this.spaces, entities: this.entities }; } // prettier-ignore
  adoptBuilt(b: { spaces: SpaceIndex; entities: EntityGraph }): void { [this.spaces, this.entities, this.matrix, this.sessions] = [b.spaces, b.entities, null, null]; this.communities.changed(); } // prettier-ignore
  /** After a staged start has attached everything: the space index's columns without growth slack. */
  settle = (): void => this.spaces.trim();

  /** Many at once (a delete of a selection, "Delete all", a purge): one message instead of one per memory. */
  removeMany(ids: MemoryId[]): void {
    const index = this.require();
    for (const id of ids) {
      index.remove(id);
      this.spaces.remove(id);
      this.entities.remove(id);
      this.meta.delete(id);
      this.sessions?.remove(id);
    }
    this.communities.changed();
  }

  /** Returns true when `requestId` was cancelled while this call yielded (the caller stops). */
  private async cancelledWhileYielding(requestId: number | undefined): Promise<boolean> {
    if (requestId === undefined) return false;
    await yieldToEventLoop();
    if (this.cancelledIds.delete(requestId)) {
      this.cancelledCount++;
      return true;
    }
    return false;
  }

  /**
   * Runs a search unless `requestId` was cancelled before it started. Async on purpose: it
   * yields once, so when the UI fires searches faster than they run, the cancels of the
   * superseded ones are processed first and only the newest does real work.
   */
  async search(q: HybridQuery, opts: EngineSearchOptions, requestId?: number): Promise<ScoredHit[]> {
    if (await this.cancelledWhileYielding(requestId)) throw new AppError('ABORTED');
    const index = this.require();
    const t0 = performance.now();
    const { decayTauDays, now, ...hybridOpts } = opts;
    const tau = decayTauDays ?? 0;
    if (!Number.isFinite(tau) || tau < 0 || tau > MAX_DECAY_TAU_DAYS)
      throw new AppError('INVALID_OPTION', `decayTauDays must be a number from 0 (off) to ${MAX_DECAY_TAU_DAYS} days (got ${String(tau)}).`);
    // decay (opt-in) and earlier versions below their successor; untouched when neither applies
    const hits = applyTime(index.search(q, hybridOpts), (id) => index.peek(id), { ...hybridOpts, decayTauDays: tau }, now ?? Date.now());
    this.lastSearchMs = performance.now() - t0;
    this.searches++;
    return hits;
  }

  /**
   * The whole ranking pipeline (hybrid + spaces + profiles + feedback + lateral + associative)
   * for a featurized query, and with it everything the view shows for a recall: the query's
   * divergence from the recent window, the evaluator's status, and the labels of the chain
   * members and recent memories that are not results (one message instead of four plus a read
   * per memory). `options` go over the stored defaults; invalid ones reject with INVALID_OPTION
   * naming the option. Cancellable like search(). `judge`: careful ranking's, `model`: the language model's, for deep search's reader (engine-deep.ts).
   */
  async recall(q: EngineRecallQuery, options: RecallOptionsInput = {}, requestId?: number, judge?: EngineJudgeSource, model?: EngineModelSource): Promise<EngineRecallOutcome> {
    if (await this.cancelledWhileYielding(requestId)) throw new AppError('ABORTED');
    const hybrid = this.require();
    const input = withEncoderMinCosine({ ...this.recallDefaults, ...options }, this.encoder);
    const o = resolveRecallOptions(input);
    if (o.deepSearch.mode !== 'off') this.communities.want(); // deep search on: its communities kept ready from now on
    const t0 = performance.now();
    const features = deserializeFeatures(q.features ?? {});
    const lateral = o.lateralMode && this.evaluator.enabled && o.lateralMaxResults > 0;
    const before = this.evaluator.status().samples;
    const ctx = this.context(lateral || o.assocHops > 0, q.now ?? Date.now());
    if (q.spaceWeights) ctx.ranking = { ...ctx.ranking, spaceWeights: { ...ctx.ranking?.spaceWeights, ...q.spaceWeights } }; // learned (deep/learn.ts)
    const late = wireLateInteraction(ctx, q); // late interaction at query time, and a repeat counting nothing twice (engine-late.ts)
    const pq = { text: q.text, features, variants: q.variants, hyde: q.hyde, tokens: q.tokens?.query };
    // seed 001 iterative search (off by default), then seed 003 deep search escalation (off by default; never in a refinement or a repeat, which keep the first pass's report)
    const iter = await iterate(ctx, pq, input, o, runPipeline(ctx, pq, input), q.reformulations ?? [], () => requestId !== undefined && this.cancelledIds.has(requestId));
    const deep = await escalate(ctx, pq, iter.results, repeated(q) ? { ...o, deepSearch: { ...o.deepSearch, mode: 'off' } } : o, { limiter: this.deepLimiter, meta: this.meta, communities: this.escalationCommunities(), confidence: calibrationFor(this.encoder).confidence, ...(judge ? { judge, weightSet: input.deepSearch?.weight !== undefined } : {}), ...(model ? { model } : {}) }, q.sessionId ?? '');
    const results = deep.results;
    this.lastRecallMs = performance.now() - t0;
    this.recalls += repeated(q) ? 0 : 1;
    const changed = this.evaluator.status().samples !== before;
    // the divergence never fails the recall that triggered it: its failure travels as a code
    let divergence: EngineDivergenceOutcome | null = null;
    let divergenceError: EngineRecallOutcome['divergenceError'];
    try {
      divergence = this.divergenceOf(features, { now: q.now ?? Date.now(), sessionId: q.sessionId ?? '' });
    } catch (e) {
      divergenceError = toEnvelope(e);
    }
    const shown = new Set(results.map((r) => r.id));
    const labels: Record<MemoryId, string> = {};
    const label = (id: MemoryId) => {
      const d = shown.has(id) || id in labels ? undefined : hybrid.doc(id);
      if (d) labels[id] = firstLine(d.text);
    };
    for (const r of results) for (const c of r.chain ?? []) label(c.id);
    for (const r of divergence?.recent ?? []) label(r.id);
    return {
      results,
      evaluator: changed ? this.evaluator.toJSON() : null,
      divergence,
      ...(divergenceError ? { divergenceError } : {}),
      lateralStatus: this.evaluator.status(),
      labels,
      ...(deep.report ? { deepSearch: deep.report } : {}),
      ...(iter.report ? { iterative: iter.report } : {}), ...late({ deepSearch: deep.report ?? undefined, iterative: iter.report ?? undefined }), // + lateCandidates: the services may refine
    };
  }

  /** `now`: the clock of lateral recency and decay (the services pass theirs: the test seam). */
  private context(needsMatrix: boolean, now: number = Date.now()): PipelineContext {
    const hybrid = this.require();
    const sessionOf = (id: MemoryId) => {
      const s = this.meta.get(id)?.sessionId;
      return s ? s : undefined;
    };
    if (needsMatrix && !this.matrix) this.matrix = liveMatrix(hybrid.vectors, sessionOf);
    return {
      hybrid,
      spaces: this.spaces,
      similarity: this.similarity,
      matrix: this.matrix ?? undefined,
      feedback: this.feedback,
      evaluator: this.evaluator,
      now,
      sessionOf,
      neighboursOf: (id) => (this.sessions ??= new SessionOrder([...this.meta].map(([mid, m]) => ({ id: mid, ...m })))).of(id),
      ranking: this.ranking,
      entities: this.entities,
    };
  }

  /**
   * Divergence of `current` from the recent window (the current session within the last
   * recentWindowHours, else that time window), in content spaces only.
   */
  divergence(q: EngineDivergenceQuery): EngineDivergenceOutcome {
    this.require();
    return this.divergenceOf(deserializeFeatures(q.features ?? {}), q);
  }

  private divergenceOf(features: SpaceFeatures, q: { now: number; sessionId: string; excludeId?: MemoryId }): EngineDivergenceOutcome {
    return recentDivergence({ hybrid: this.require(), spaces: this.spaces, meta: this.meta, similarity: this.similarity, context: (now) => this.context(false, now), encoder: this.encoder }, features, q);
  }

  /**
   * A reinforce / suppress event (already stored by the services): updates the ranking's
   * feedback state and the lateral evaluator. Returns whether the memory was a lateral result.
   */
  recordFeedback(event: EngineFeedbackEvent): EngineFeedbackOutcome {
    // an event older than the newest one (another tab's, arriving late) rebuilds the state from
    // the log in time order; any other is validated and applied (a bad one throws, nothing kept)
    if (this.feedback.inOrder(event)) {
      this.feedback.record(event);
      this.feedbackEvents.push(event);
    } else {
      new FeedbackState().record(event); // validates it alone
      this.feedbackEvents.push(event);
      this.feedback = FeedbackState.fromEvents(this.feedbackEvents);
    }
    const wasLateral =
      event.kind === 'reinforce' ? this.evaluator.recordReinforcement(event.id, event.valence) : this.evaluator.recordSuppression(event.id);
    return { wasLateral, evaluator: this.evaluator.toJSON() };
  }

  setSimilarityConfig(config: SimilarityConfig): void {
    assertValidSimilarityConfig(config);
    this.similarity = config;
  }

  /** Validated (INVALID_OPTION naming the option); the evaluator keeps its tuning. */
  setRecallDefaults(input: RecallOptionsInput): void {
    resolveRecallOptions(input);
    this.recallDefaults = { ...input };
  }

  lateralStatus = (): LateralStatus => this.evaluator.status();

  /** Turns lateral mode back on after an auto-disable (fresh counters); returns the new state. */
  reEnableLateral(): LateralEvaluatorState {
    this.evaluator.reEnable();
    return this.evaluator.toJSON();
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
      spaces: this.spaces.size,
      searches: this.searches,
      recalls: this.recalls,
      cancelled: this.cancelledCount,
      lastSearchMs: this.lastSearchMs,
      lastRecallMs: this.lastRecallMs,
      lastLoadMs: this.lastLoadMs,
      feedbackSkipped: this.feedback.skipped,
      warm: this.warm,
    };
  }

  private require(): HybridIndex {
    if (!this.index) throw new AppError('NOT_READY');
    return this.index;
  }
}
