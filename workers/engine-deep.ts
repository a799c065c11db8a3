// Deep search escalation in the engine worker (seed 003), after the primary ranking: the pure
// core (src/core/deep) over the engine's state. The pool's documents come from the hybrid index
// (status, tombstone, validity) and the engine's meta (session, time); entity neighbours from the
// EntityGraph; communities from Louvain (workers/communities.ts), computed on the first escalation
// and kept until the memories change. The offline reader reads the stored features. Shadow mode
// returns the primary results untouched with the report (the services log it); active mode
// returns the merge, each result the reader read carrying `deep`.

import { CONSTRAINT_TAG, deepSearch, OfflineReader, SessionRateLimiter, type ConfidenceModel, type DeepReportView, type PoolDoc, type Reader, type ReaderCandidate } from '../src/core/deep';
import type { HybridIndex } from '../src/core/hybrid';
import { annotate, type PipelineContext, type PipelineQuery, type PipelineResult } from '../src/core/pipeline';
import type { RecallOptions } from '../src/core/recall';
import type { MemoryId } from '../src/core/types';

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

export interface EscalationState {
  limiter: SessionRateLimiter;
  meta: ReadonlyMap<MemoryId, { createdAt: number; sessionId: string }>;
  communities: () => ReadonlyMap<MemoryId, number> | undefined;
  /** The encoder's calibrated trigger (calibrationFor(encoder).confidence). */
  confidence?: ConfidenceModel;
}

function poolDocs(hybrid: HybridIndex, meta: EscalationState['meta']): PoolDoc[] {
  const out: PoolDoc[] = [];
  for (const id of hybrid.ids()) {
    const d = hybrid.doc(id);
    const m = meta.get(id);
    if (!d) continue;
    out.push({ id, sessionId: m?.sessionId ?? '', createdAt: m?.createdAt ?? d.createdAt, status: d.status, deletedAt: d.deletedAt ?? null, validFrom: d.validFrom, validTo: d.validTo });
  }
  return out;
}

export async function escalate(
  ctx: PipelineContext,
  q: PipelineQuery,
  results: PipelineResult[],
  o: RecallOptions,
  state: EscalationState,
  sessionId: string,
): Promise<{ results: PipelineResult[]; report: DeepReportView | null }> {
  const ds = o.deepSearch;
  if (ds.mode === 'off') return { results, report: null };
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
    options: ds,
    source: { docs: poolDocs(hybrid, state.meta), entities: ctx.entities, communityOf: (id) => state.communities()?.get(id) },
    // the primary ranking's scope: the status gate and, for a point-in-time read, asOf
    scope: { includeArchived: o.includeArchived, includeQuarantined: o.includeQuarantined, ...(o.asOf !== null ? { asOf: o.asOf } : {}) },
    candidateOf,
    reader,
    limiter: state.limiter,
    sessionId,
    isConstraint: (id) => hybrid.doc(id)?.tags.includes(CONSTRAINT_TAG) === true,
    timers,
    confidenceModel: state.confidence,
  });
  const r = out.report;
  const report: DeepReportView | null = r.status === 'off' || r.status === 'confident' ? null : { ...r, mode: ds.mode };
  if (r.status !== 'merged') return { results, report };
  const byId = new Map(results.map((x) => [x.id, x]));
  const viaOf = new Map(r.pool.map((p) => [p.id, p.via]));
  const fresh = out.results.filter((h) => !byId.has(h.id)).map((h) => ({ id: h.id, score: h.score, mode: 'standard' as const, why: { lexical: 0, semantic: 0, bm25: 0, cosine: 0, matchedTerms: [] } }));
  const annotated = new Map(annotate(ctx, q, fresh, []).map((x) => [x.id, x]));
  const merged = out.results.map((h): PipelineResult => {
    const base = byId.get(h.id) ?? annotated.get(h.id)!;
    const deep = h.readerScore === undefined ? undefined : { readerScore: h.readerScore, reasons: h.reasons ?? [], via: viaOf.get(h.id) ?? [], source: h.source };
    return { ...base, score: h.score, ...(deep ? { deep } : {}) };
  });
  // lateral and associative results keep their places after the merged standard ones
  return { results: [...merged, ...results.filter((x) => x.mode !== 'standard' && !merged.some((m) => m.id === x.id))], report };
}
