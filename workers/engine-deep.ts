// Deep search escalation in the engine worker (seed 003), after the primary ranking: the pure
// core (src/core/deep) over the engine's state. The pool's documents come from the hybrid index
// (status, tombstone, validity) and the engine's meta (session, time); entity neighbours from the
// EntityGraph; communities from Louvain, computed in the background (workers/communities-background.ts)
// and read as they are when a query escalates (never waited for). The offline reader reads the stored features. Shadow mode
// returns the primary results untouched with the report (the services log it); active mode
// returns the merge, each result the reader read carrying `deep`.
// With careful ranking's judge (`state.judge`, handed in by the services when it is on and ready)
// the reader asks it for the query's and the pool's judge vectors once the query escalates, and
// reads with the JudgeReader at JUDGE_DEEP_SETTINGS (docs/ARCHITECTURE.md, "Deep search with the
// judge"); any judge failure, or no query vector, and it reads as the offline reader did.
// With the language model on this computer (`state.model`, handed in by the services when the
// person let it read deeper searches) the reader sends it the pool once the query escalates and
// takes its scores, each reason said as the model's ("Deep search with the language model"); a
// failure or an empty answer and it reads as it would have without the model.

import * as Comlink from 'comlink';
import {
  CONSTRAINT_TAG,
  deepSearch,
  JUDGE_DEEP_SETTINGS,
  judgeCosine,
  JudgeReader,
  OfflineReader,
  SessionRateLimiter,
  type ConfidenceModel,
  type DeepSearchOptions,
  type JudgeVectors,
  type PoolDoc,
  type Reader,
  type ReaderCandidate,
} from '../src/core/deep';
import type { HybridIndex } from '../src/core/hybrid';
import { annotate, type PipelineContext, type PipelineQuery, type PipelineResult } from '../src/core/pipeline';
import type { RecallOptions } from '../src/core/recall';
import type { MemoryId } from '../src/core/types';
import { MODEL_REASON_PREFIX, type EngineDeepReport, type EngineJudgeSource, type EngineModelSource } from '../src/protocol/engine';

const offline = new OfflineReader();
const timers = { setTimeout: (f: () => void, ms: number) => setTimeout(f, ms), clearTimeout: (h: never) => clearTimeout(h) };
const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 1));

/**
 * The offline reader as the engine runs it: it yields to the worker twice (1 ms timers) before
 * reading, so the timeout bound can take effect like it would on a slow model. Timers of equal
 * delay fire in the order they were set, so the second tick, set after the first fired, always
 * comes after the bound's timer when timeoutMs is 1 (the timeout's test); ~2 ms otherwise. A read
 * whose signal was aborted meanwhile reads nothing.
 */
const reader: Reader = {
  kind: 'offline',
  async read(q, pool, ctx) {
    await tick();
    await tick();
    return ctx?.signal?.aborted ? [] : offline.readSync(q, pool);
  },
};

/** Lets go of the services' judge (or model) function after a recall (a Comlink proxy holds a channel open; a plain function has nothing to release). */
export function releaseJudge(judge: EngineJudgeSource | EngineModelSource | undefined): void {
  const release = (judge as unknown as { [Comlink.releaseProxy]?: () => void } | undefined)?.[Comlink.releaseProxy];
  if (typeof release === 'function') release();
}

/** What the judge read in one escalation: its vectors, the pool members it had one for, its cost. */
interface JudgeUse {
  judge: JudgeVectors;
  read: number;
  of: number;
  ms: number;
}

/**
 * The reader with careful ranking's judge: the same two ticks, then ONE call to the services for
 * the query's judge vector and the pool's stored ones (inside deep search's timeout, after its rate
 * limit: only an escalation pays for it). Used only when the query vector came and at least one
 * member has a vector of its length; else (null, a failure, nothing stored) the offline reader.
 */
function judgeAwareReader(source: EngineJudgeSource, used: { value?: JudgeUse }): Reader {
  return {
    kind: 'offline',
    async read(q, pool, ctx) {
      await tick();
      await tick();
      if (ctx?.signal?.aborted) return [];
      const t0 = performance.now();
      let got: Awaited<ReturnType<EngineJudgeSource>> = null;
      try {
        got = await source(pool.map((c) => c.id));
      } catch (e) {
        console.debug('[mnemograph] deep search reads without careful ranking this time', e);
      }
      if (ctx?.signal?.aborted) return [];
      const query = got?.query;
      const vectors = got?.vectors ?? {};
      const judge: JudgeVectors = { query, vectorOf: (id) => (Object.hasOwn(vectors, id) ? vectors[id] : undefined), weight: JUDGE_DEEP_SETTINGS.readerWeight };
      const read = query && query.length > 0 ? pool.filter((c) => judgeCosine(judge, c.id) !== undefined).length : 0;
      if (read === 0) return offline.readSync(q, pool);
      used.value = { judge, read, of: pool.length, ms: Math.round(performance.now() - t0) };
      return new JudgeReader(judge).readSync(q, pool);
    },
  };
}

/** What the language model read in one escalation: the members it scored, the pool's size, its round trip. */
interface ModelUse {
  read: number;
  of: number;
  ms: number;
}

/**
 * The reader with the language model on this computer: ONE call to the services with the pool's
 * ids and texts (already trimmed to the token budget; inside deep search's timeout, after its rate
 * limit), the model's scores with each reason prefixed as the model's. A null answer, a failure or
 * no score: `fallback` reads instead (the judge's reader or the offline one), in the same timeout.
 */
function modelAwareReader(source: EngineModelSource, fallback: Reader, used: { value?: ModelUse }): Reader {
  return {
    kind: 'model',
    async read(q, pool, ctx) {
      if (ctx?.signal?.aborted) return [];
      let got: Awaited<ReturnType<EngineModelSource>> = null;
      try {
        got = pool.length ? await source(pool.map((c) => ({ id: c.id, text: c.text }))) : null;
      } catch (e) {
        console.debug('[mnemograph] deep search reads without the language model this time', e);
      }
      if (ctx?.signal?.aborted) return [];
      const scores = got?.scores ?? [];
      if (scores.length === 0) return fallback.read(q, pool, ctx);
      used.value = { read: scores.length, of: pool.length, ms: Math.round(got!.ms) };
      return scores.map((s) => ({ id: s.id, score: s.score, reasons: (Array.isArray(s.reasons) ? s.reasons : []).filter((x) => typeof x === 'string').map((x) => `${MODEL_REASON_PREFIX}${x}`) }));
    },
  };
}

/**
 * The options deep search merges with: the judge reader's merge weight (JUDGE_DEEP_SETTINGS) once
 * the judge has read, unless the person chose a weight. deepSearch reads `weight` only when it
 * merges, after the reader, so the weight follows what actually read the pool.
 */
function judgedOptions(ds: DeepSearchOptions, used: { value?: JudgeUse }, weightSet: boolean): DeepSearchOptions {
  if (weightSet) return ds;
  const out = { ...ds };
  Object.defineProperty(out, 'weight', { enumerable: true, get: () => (used.value ? JUDGE_DEEP_SETTINGS.mergeWeight : ds.weight) });
  return out;
}

export interface EscalationState {
  limiter: SessionRateLimiter;
  meta: ReadonlyMap<MemoryId, { createdAt: number; sessionId: string }>;
  communities: () => ReadonlyMap<MemoryId, number> | undefined;
  /** The encoder's calibrated trigger (calibrationFor(encoder).confidence). */
  confidence?: ConfidenceModel;
  /** Careful ranking's judge (the services' EngineJudgeSource), when it is on and ready: the reader reads with it. */
  judge?: EngineJudgeSource;
  /** The recall's options named deepSearch.weight: the judge reader's merge weight does not replace it. */
  weightSet?: boolean;
  /** The language model on this computer (the services' EngineModelSource), when the person let it read deeper searches. */
  model?: EngineModelSource;
}

/** Every memory as expansion reads it, and the constraint memories (the `rule` strategy: each in scope is read). */
function poolSource(hybrid: HybridIndex, meta: EscalationState['meta']): { docs: PoolDoc[]; constraints: MemoryId[] } {
  const docs: PoolDoc[] = [];
  const constraints: MemoryId[] = [];
  for (const id of hybrid.ids()) {
    const d = hybrid.doc(id);
    const m = meta.get(id);
    if (!d) continue;
    docs.push({ id, sessionId: m?.sessionId ?? '', createdAt: m?.createdAt ?? d.createdAt, status: d.status, deletedAt: d.deletedAt ?? null, validFrom: d.validFrom, validTo: d.validTo });
    if (d.tags.includes(CONSTRAINT_TAG)) constraints.push(id);
  }
  return { docs, constraints };
}

export async function escalate(
  ctx: PipelineContext,
  q: PipelineQuery,
  results: PipelineResult[],
  o: RecallOptions,
  state: EscalationState,
  sessionId: string,
): Promise<{ results: PipelineResult[]; report: EngineDeepReport | null }> {
  const ds = o.deepSearch;
  if (ds.mode === 'off') return { results, report: null };
  const used: { value?: JudgeUse } = {};
  const usedModel: { value?: ModelUse } = {};
  const offlineOrJudge = state.judge ? judgeAwareReader(state.judge, used) : reader;
  const hybrid = ctx.hybrid;
  const primary = results.filter((r) => r.mode === 'standard');
  const candidateOf = (id: MemoryId): ReaderCandidate | undefined => {
    const d = hybrid.doc(id);
    return d && { id, text: d.text, createdAt: state.meta.get(id)?.createdAt ?? d.createdAt, features: ctx.spaces.features(id) };
  };
  const out = await deepSearch({
    query: { text: q.text, features: q.features },
    primary,
    topK: o.topK,
    options: state.judge ? judgedOptions(ds, used, state.weightSet === true) : ds,
    source: { ...poolSource(hybrid, state.meta), entities: ctx.entities, communityOf: (id) => state.communities()?.get(id) },
    // the primary ranking's scope: the status gate and, for a point-in-time read, asOf
    scope: { includeArchived: o.includeArchived, includeQuarantined: o.includeQuarantined, ...(o.asOf !== null ? { asOf: o.asOf } : {}) },
    candidateOf,
    reader: state.model ? modelAwareReader(state.model, offlineOrJudge, usedModel) : offlineOrJudge,
    limiter: state.limiter,
    sessionId,
    isConstraint: (id) => hybrid.doc(id)?.tags.includes(CONSTRAINT_TAG) === true,
    timers,
    confidenceModel: state.confidence,
  });
  const r = out.report;
  const j = used.value;
  const m = usedModel.value;
  // a plain copy (the options' weight getter stays behind); the judge's or the model's figures when it read
  const report: EngineDeepReport | null =
    r.status === 'off' || r.status === 'confident' ? null : { ...r, mode: ds.mode, ...(j ? { judge: { read: j.read, of: j.of, ms: j.ms } } : {}), ...(m ? { model: m } : {}) };
  if (r.status !== 'merged') return { results, report };
  const byId = new Map(results.map((x) => [x.id, x]));
  const viaOf = new Map(r.pool.map((p) => [p.id, p.via]));
  const fresh = out.results.filter((h) => !byId.has(h.id)).map((h) => ({ id: h.id, score: h.score, mode: 'standard' as const, why: { lexical: 0, semantic: 0, bm25: 0, cosine: 0, matchedTerms: [] } }));
  const annotated = new Map(annotate(ctx, q, fresh, []).map((x) => [x.id, x]));
  const merged = out.results.map((h): PipelineResult => {
    const base = byId.get(h.id) ?? annotated.get(h.id)!;
    const cos = j && h.readerScore !== undefined ? judgeCosine(j.judge, h.id) : undefined;
    const deep =
      h.readerScore === undefined
        ? undefined
        : { readerScore: h.readerScore, reasons: h.reasons ?? [], via: viaOf.get(h.id) ?? [], source: h.source, ...(cos !== undefined ? { judge: Math.max(0, Math.min(1, cos)) } : {}) };
    return { ...base, score: h.score, ...(deep ? { deep } : {}) };
  });
  // lateral and associative results keep their places after the merged standard ones
  return { results: [...merged, ...results.filter((x) => x.mode !== 'standard' && !merged.some((m) => m.id === x.id))], report };
}
