// Iterative search in the engine worker (seed 001 searchIterative, src/core/deep/iterative.ts): the
// pure loop over the engine's pipeline. Pass 1 is the primary ranking already computed; a
// reformulated pass runs the pipeline with the variant's words and its vector (the services embed
// the reformulations before the one engine message; a variant without a vector keeps the
// original's); the widened pass runs it with expandHops 1. Grades come from the offline reader over
// the stored features. Between passes the worker yields to its event loop, so a cancel of this
// request (a new query) is taken and the loop stops ('aborted', the recall rejects ABORTED).

import { OfflineReader, passWords, searchIterative, type IterativeResult, type ReaderCandidate } from '../src/core/deep';
import { AppError } from '../src/core/errors';
import { annotate, runPipeline, type PipelineContext, type PipelineQuery, type PipelineResult } from '../src/core/pipeline';
import type { RecallOptions, RecallOptionsInput } from '../src/core/recall';
import type { MemoryId } from '../src/core/types';
import type { EngineIterativeReport } from '../src/protocol/engine';

const reader = new OfflineReader();
const yieldToEventLoop = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

export async function iterate(
  ctx: PipelineContext,
  pq: PipelineQuery,
  input: RecallOptionsInput,
  o: RecallOptions,
  primary: PipelineResult[],
  reformulations: readonly { text: string; vector: Float32Array | null }[],
  cancelled: () => boolean,
): Promise<{ results: PipelineResult[]; report: EngineIterativeReport | null }> {
  const it = o.iterative;
  if (!it) return { results: primary, report: null };
  const seen = new Map<MemoryId, PipelineResult>(primary.map((r) => [r.id, r]));
  const signal = { get aborted() { return cancelled(); } };
  let calls = 0;
  const retrieve = async (text: string, pass: { expandHops: 0 | 1 }) => {
    if (calls++ === 0) return primary.filter((r) => r.mode === 'standard');
    await yieldToEventLoop(); // a cancel sent meanwhile is taken here
    if (cancelled()) return [];
    const v = reformulations.find((x) => x.text === text);
    const features = v?.vector ? { ...pq.features, E1: v.vector } : pq.features;
    const got = runPipeline(ctx, { text, features }, { ...input, expandHops: pass.expandHops, iterative: null, deepSearch: null, multiQuery: 1, hyde: false });
    const standard = got.filter((r) => r.mode === 'standard');
    for (const r of standard) if (!seen.has(r.id)) seen.set(r.id, r);
    return standard;
  };
  const candidateOf = (id: MemoryId): ReaderCandidate | undefined => {
    const d = ctx.hybrid.doc(id);
    return d && { id, text: d.text, createdAt: d.createdAt, features: ctx.spaces.features(id) };
  };
  const texts = reformulations.map((r) => r.text);
  const out: IterativeResult = await searchIterative(
    pq.text,
    {
      retrieve,
      candidateOf,
      reader,
      transformer: { kind: 'offline', variants: async () => texts, hypothetical: async () => null },
      queryFeatures: pq.features,
    },
    { maxIterations: it.maxIterations, forceHard: it.forceHard, topK: o.topK, signal, threshold: o.deepSearch.threshold },
  );
  if (out.stoppedBy === 'aborted' || cancelled()) throw new AppError('ABORTED');
  const report: EngineIterativeReport = {
    hard: out.hard,
    abstained: out.abstained,
    stoppedBy: out.stoppedBy,
    explanation: out.explanation,
    passes: out.passes.map((p) => ({ pass: p.pass, action: p.action, query: p.query, added: p.added.length, bestGrade: p.bestGrade })),
  };
  if (out.stoppedBy === 'easy') return { results: primary, report };
  const passOf = new Map<MemoryId, (typeof out.passes)[number]>();
  for (const p of out.passes) if (p.pass > 1) for (const id of p.added) if (!passOf.has(id)) passOf.set(id, p);
  const missing = out.results.filter((h) => !seen.has(h.id)).map((h) => ({ id: h.id, score: h.score, mode: 'standard' as const, why: { lexical: 0, semantic: 0, bm25: 0, cosine: 0, matchedTerms: [] } }));
  for (const a of annotate(ctx, pq, missing, [])) seen.set(a.id, a);
  const firstIds = new Set(primary.map((r) => r.id));
  const merged = out.results.flatMap((h): PipelineResult[] => {
    const base = seen.get(h.id);
    if (!base) return [];
    const p = passOf.get(h.id);
    const found = !firstIds.has(h.id) && p && p.action !== 'retrieve' ? { iterative: { pass: p.pass, action: p.action, query: p.query, grade: h.readerScore ?? 0, words: passWords(p) } } : {};
    return [{ ...base, score: h.score, ...found }];
  });
  // lateral and associative results of pass 1 keep their places after the merged standard ones
  return { results: [...merged, ...primary.filter((x) => x.mode !== 'standard' && !merged.some((m) => m.id === x.id))], report };
}
