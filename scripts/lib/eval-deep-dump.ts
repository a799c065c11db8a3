// DEEP_DUMP=<file.json> (with DEEP_GRID=1 --deep-only): per query, what the sixth pass's diagnosis
// reads (docs/research/quality.md, "Sixth pass"), written once the grid's passes are computed:
//   first / refined   the primary's first pass and refined answer, top 200 (ids); first10 / refined10
//                     the same at topK 10 (what the app shows: the candidate depth follows topK)
//   conf              the trigger's confidence over the first pass (and its parts)
//   pool              the shipped deep pool over the first pass's top 10 (cap 50), with its ways
//   nearest           the judge's 200 nearest memories to the question (ids)
//   bridge1 / bridge3 a second hop: the hybrid index searched with the question plus the text of the
//                     first pass's top 1 / top 3 (the vector: the question's plus theirs, normalised), top 200
//   read              the judge reader (w2) over the union of the above tops (first/refined/nearest 50,
//                     bridges 50, the pool), idf over that union: id -> [reader score, judge cosine]
// and per memory: session, position in its session, speaker, entity ids.
import { writeFileSync } from 'node:fs';
import { confidenceOf, expandPool, JudgeReader, judgeCosine } from '../../src/core/deep';
import { runPipeline, type EncoderCalibration } from '../../src/core/pipeline';
import type { RecallOptionsInput } from '../../src/core/recall';
import type { MemoryId } from '../../src/core/types';
import type { PreparedConversation } from '../eval-locomo';
import type { DeepConv } from './eval-deep-search';
import type { JudgeTextVectors } from './eval-deep-grid';

const unit = (v: Float32Array) => {
  let n = 0;
  for (const x of v) n += x * x;
  n = Math.sqrt(n) || 1;
  return v.map((x) => x / n);
};

export async function deepDump(
  file: string,
  prepared: PreparedConversation[],
  per: ReadonlyMap<PreparedConversation, DeepConv>,
  calibration: EncoderCalibration,
  opts: RecallOptionsInput,
  judge: JudgeTextVectors | undefined,
): Promise<void> {
  const convs: unknown[] = [];
  for (const pc of prepared) {
    const c = per.get(pc)!;
    const text = new Map(pc.conv.memories.map((m) => [m.id, m.text]));
    const posOf = new Map<MemoryId, number>();
    const seen = new Map<number, number>();
    for (const m of pc.conv.memories) {
      const k = seen.get(m.session) ?? 0;
      posOf.set(m.id, k);
      seen.set(m.session, k + 1);
    }
    const memories = pc.conv.memories.map((m) => ({ id: m.id, s: m.session, p: posOf.get(m.id), sp: m.speaker, e: [...c.graph.entitiesOf(m.id)] }));
    const queries = [];
    for (const q of pc.queries) {
      const features = c.f.queryFeatures.get(q)!;
      const first = runPipeline(c.ctx, { text: q.question, features }, { ...opts, topK: 200 }).map((r) => r.id);
      const refined = runPipeline(c.ctx, { text: q.question, features, tokens: c.f.queryTokens?.get(q) }, { ...opts, topK: 200 }).map((r) => r.id);
      const first10 = runPipeline(c.ctx, { text: q.question, features }, opts);
      const refined10 = runPipeline(c.ctx, { text: q.question, features, tokens: c.f.queryTokens?.get(q) }, opts).map((r) => r.id);
      const conf = confidenceOf(first10.map((r) => r.score), 10, calibration.confidence);
      const pool = expandPool(first10.map((r) => r.id), { docs: c.docs, entities: c.graph, communityOf: (id) => c.communities.get(id) }, {}, { cap: 50 });
      const qv = judge?.get(q.question);
      const jv = { query: qv, vectorOf: (id: MemoryId) => judge?.get(text.get(id) ?? ''), weight: 2 };
      const nearest = qv
        ? pc.conv.memories.map((m) => ({ id: m.id, c: judgeCosine(jv, m.id) ?? -1 })).sort((a, b) => b.c - a.c || (a.id < b.id ? -1 : 1)).slice(0, 200).map((x) => x.id)
        : [];
      const bridge = (h: number) => {
        const top = first10.slice(0, h).map((r) => r.id);
        const v = features.E1 ? Float32Array.from(features.E1 as Float32Array) : null;
        if (v) for (const id of top) {
          const mv = c.f.spaces.features(id)?.E1 as Float32Array | undefined;
          if (mv) for (let i = 0; i < v.length; i++) v[i] += mv[i];
        }
        return pc.index.search({ text: [q.question, ...top.map((id) => text.get(id) ?? '')].join(' '), vector: v ? unit(v) : null }, { topK: 200 }).map((x) => x.id);
      };
      const bridge1 = bridge(1);
      const bridge3 = bridge(3);
      const ids = [...new Set([...refined10, ...first.slice(0, 50), ...refined.slice(0, 50), ...nearest.slice(0, 50), ...bridge1.slice(0, 50), ...bridge3.slice(0, 50), ...pool.map((p) => p.id), ...q.evidence])];
      const cands = ids.map((id) => c.candidateOf(id)).filter((x) => x !== undefined);
      const reader = new JudgeReader(jv);
      const scores = reader.readSync({ text: q.question, features }, cands);
      const read: Record<string, [number, number]> = {};
      for (const s of scores) read[s.id] = [Math.round(s.score * 1e4) / 1e4, Math.round((judgeCosine(jv, s.id) ?? 0) * 1e4) / 1e4];
      queries.push({
        q: q.question, cat: q.category, ev: q.evidence, conf: conf.value, top: conf.top, gap: conf.gap, spread: conf.spread,
        first10: first10.map((r) => r.id), refined10, first, refined, nearest, bridge1, bridge3,
        firstScores: first10.map((r) => r.score),
        pool: pool.map((p) => ({ id: p.id, r: p.primaryRank, via: [...new Set(p.via.map((v) => v.strategy))] })),
        read,
      });
    }
    convs.push({ sampleId: pc.conv.sampleId, memories, queries });
  }
  writeFileSync(file, JSON.stringify(convs));
}
