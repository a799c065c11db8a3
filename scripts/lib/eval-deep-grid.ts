// DEEP_GRID=1 (with --deep-only): the deep-search row under readers x pools x merge weights x
// trigger thresholds, by half of the file (docs/research/quality.md, "Fifth pass"), to choose on
// one half and read on the other. Each query's first pass, refined answer and confidence are
// computed once; each (reader, pool, weight) runs deepSearch with every query escalated
// (threshold 1) and a lower threshold t keeps the escalation's answer only for the queries whose
// confidence is below t (the refined answer for the rest), which is what running at t does.
//   readers  offline (shipped) | judge w (the offline parts + the judge's cosine at weight w) | judge
//            alone (w 1000)
//   bases    first (the app's flow: the merge into the first pass, whose confidence the trigger read)
//            | refined (the merge into the refined answer, late interaction kept; the trigger still
//            reads the first pass)
//   pools    shipped (the primary top 10 + temporal / entity / community, cap 50) | deeper20 / deeper30
//            (the first pass's top 20 / 30 read, then the expansion, cap 50) | top30 (the first pass's
//            top 30, no expansion) | temporal (no entity, no community) | nearest / deeper30nearest
//            (the shipped / deeper30 pool with the judge's 20 nearest memories to the query as a
//            fourth strategy, `meaning`)
// Folds as the earlier passes: A = conv-26, conv-41, conv-43, para-dev-1, para-dev-3; B = the rest.
// DEEP_GRID_READERS (e.g. "offline,j1,j2"), DEEP_GRID_POOLS, DEEP_GRID_WEIGHTS, DEEP_GRID_THRESHOLDS
// narrow the grid.
import { confidenceOf, deepSearch, JudgeReader, judgeCosine, mergeDeep, resolveDeepSearch, type Reader, type ReaderScore } from '../../src/core/deep';
import { judgeRerank, runPipeline, type EncoderCalibration } from '../../src/core/pipeline';
import type { RecallOptionsInput } from '../../src/core/recall';
import type { MemoryId } from '../../src/core/types';
import type { EvalQuery, PreparedConversation } from '../eval-locomo';
import type { DeepConv } from './eval-deep-search';
import { mean, mrrAt, ndcgAt, percentile, recallAt, top1At } from './metrics';

const K = 10;
const FOLD_A = new Set(['conv-26', 'conv-41', 'conv-43', 'para-dev-1', 'para-dev-3']);
const timers = { setTimeout: (f: () => void, ms: number) => setTimeout(f, ms), clearTimeout: (h: never) => clearTimeout(h) };

/** The judge's vector of a text (the eval's judge cache: scripts/lib/eval-judge.ts). */
export interface JudgeTextVectors {
  get(text: string): Float32Array | undefined;
}

export interface GridRow {
  /** The list deep search merges into: the first pass (the app's flow) or the refined answer. */
  base: 'first' | 'refined' | 'judged' | 'none' | 'none-judged';
  reader: string;
  pool: string;
  weight: number;
  /** Reserved slots (keep m, s slots; DEEP_GRID_WEIGHTS entries "kMsS"), absent = the blend at `weight`. */
  reserve?: { keep: number; slots: number };
  threshold: number;
  fold: 'all' | 'A' | 'B';
  r10: number;
  ndcg10: number;
  mrr10: number;
  top1: number;
  recoveredShare: number;
  invocationRate: number;
  meanMs: number;
  p95Ms: number;
}

interface Memo {
  fold: 'A' | 'B';
  q: EvalQuery;
  pc: PreparedConversation;
  first: { id: MemoryId; score: number }[];
  /** The first pass and the refined answer at topK 10 (the candidate depth follows topK: what the app shows), with scores. */
  first10: { id: MemoryId; score: number }[];
  refined10: { id: MemoryId; score: number }[];
  /** The refined answer's top 30 with scores (the `refined` base), and its top 10 ids. */
  refinedScored: { id: MemoryId; score: number }[];
  refined: MemoryId[];
  /** The app's answer when its judge applies (the refined top 30 re-scored by calibration.judge; DEEP_JUDGE's vectors), else the refined. */
  judgedScored: { id: MemoryId; score: number }[];
  judged: MemoryId[];
  confidence: number;
  /** The judge's 20 nearest memories to the query (the `meaning` strategy), best first. */
  nearest: MemoryId[];
}

const POOLS: Record<string, { readDepth?: number; poolCap: number; entities: boolean; communities: boolean; nearest?: number }> = {
  shipped: { poolCap: 50, entities: true, communities: true },
  deeper20: { readDepth: 20, poolCap: 50, entities: true, communities: true },
  deeper30: { readDepth: 30, poolCap: 50, entities: true, communities: true },
  top30: { readDepth: 30, poolCap: 30, entities: true, communities: true },
  temporal: { poolCap: 50, entities: false, communities: false },
  nearest: { poolCap: 50, entities: true, communities: true, nearest: 20 },
  deeper30nearest: { readDepth: 30, poolCap: 50, entities: true, communities: true, nearest: 20 },
};

const list = (env: string | undefined, all: string[]) => (env ? env.split(',').filter((x) => all.includes(x)) : all);

export async function deepGrid(
  prepared: PreparedConversation[],
  per: ReadonlyMap<PreparedConversation, DeepConv>,
  calibration: EncoderCalibration,
  opts: RecallOptionsInput,
  judge: JudgeTextVectors | undefined,
  log: (m: string) => void,
): Promise<GridRow[]> {
  const memos: Memo[] = [];
  for (const pc of prepared) {
    const c = per.get(pc)!;
    for (const q of pc.queries) {
      const features = c.f.queryFeatures.get(q)!;
      const first = runPipeline(c.ctx, { text: q.question, features }, { ...opts, topK: 30 }).map((r) => ({ id: r.id, score: r.score }));
      const refinedHits = runPipeline(c.ctx, { text: q.question, features, tokens: c.f.queryTokens?.get(q) }, { ...opts, topK: 30 });
      const refinedScored = refinedHits.map((r) => ({ id: r.id, score: r.score }));
      const refined10 = runPipeline(c.ctx, { text: q.question, features, tokens: c.f.queryTokens?.get(q) }, opts).map((r) => ({ id: r.id, score: r.score }));
      const refined = refined10.map((r) => r.id);
      // the trigger reads the first pass as the app runs it (topK 10: a deeper run's scores differ,
      // its candidate depth follows topK), whichever list deep search merges into
      const first10 = runPipeline(c.ctx, { text: q.question, features }, opts).map((r) => ({ id: r.id, score: r.score }));
      const confidence = confidenceOf(first10.map((r) => r.score), K, calibration.confidence).value;
      const qv = judge?.get(q.question);
      const nearest = qv
        ? pc.conv.memories
            .map((mem) => ({ id: mem.id, c: judgeCosine({ query: qv, vectorOf: () => judge!.get(mem.text) }, mem.id) ?? -1 }))
            .sort((a, b) => b.c - a.c || (a.id < b.id ? -1 : 1))
            .slice(0, 20)
            .map((x) => x.id)
        : [];
      const textOfMem = new Map(pc.conv.memories.map((mem) => [mem.id, mem.text]));
      const spec = calibration.judge;
      const judgedScored = qv && spec ? judgeRerank(refinedHits, qv, (id) => judge!.get(textOfMem.get(id) ?? ''), spec).map((r) => ({ id: r.id, score: r.score })) : refinedScored;
      memos.push({ fold: FOLD_A.has(pc.conv.sampleId) ? 'A' : 'B', q, pc, first, first10, refined10, refinedScored, refined, judgedScored, judged: judgedScored.slice(0, K).map((h) => h.id), confidence, nearest });
    }
  }
  if (process.env.DEEP_DUMP) {
    await (await import('./eval-deep-dump')).deepDump(process.env.DEEP_DUMP, prepared, per, calibration, opts, judge);
    log(`deep dump: ${process.env.DEEP_DUMP}`);
    if (process.env.DEEP_DUMP_ONLY === '1') return [];
  }
  const readers = list(process.env.DEEP_GRID_READERS, judge ? ['offline', 'j0.5', 'j1', 'j2', 'j4', 'judge'] : ['offline']);
  const pools = list(process.env.DEEP_GRID_POOLS, Object.keys(POOLS));
  // a weight is the blend's ("0.7") or reserved slots ("k6s3": the primary's top 6 kept, 3 slots)
  const weights = (process.env.DEEP_GRID_WEIGHTS ?? '0.5,0.3').split(',').map((w) => {
    const r = /^k(\d+)s(\d+)$/.exec(w);
    return r ? { weight: 0.5, reserve: { keep: Number(r[1]), slots: Number(r[2]) } } : { weight: Number(w) };
  });
  const bases = list(process.env.DEEP_GRID_BASES, ['first', 'refined', 'judged']) as ('first' | 'refined' | 'judged')[];
  const thresholds = (process.env.DEEP_GRID_THRESHOLDS ?? `${resolveDeepSearch({}).threshold},0.5,0.7,1`).split(',').map(Number);
  const textOf = new Map(prepared.map((pc) => [pc, new Map(pc.conv.memories.map((m) => [m.id, m.text]))]));
  const readerOf = (name: string, m: Memo): Reader => {
    const c = per.get(m.pc)!;
    if (name === 'offline' || !judge) return c.reader;
    const w = name === 'judge' ? 1000 : Number(name.slice(1));
    const text = textOf.get(m.pc)!;
    return new JudgeReader({ query: judge.get(m.q.question), vectorOf: (id) => judge.get(text.get(id) ?? ''), weight: w });
  };
  const rows: GridRow[] = [];
  for (const baseName of bases) {
  // the answer without deep search (and what "missing" is read against): the judged one for the judged base
  const base = (m: Memo) => (baseName === 'judged' ? m.judged : m.refined);
  for (const readerName of readers)
    for (const poolName of pools) {
      // the pool and the reader's scores once per (base, reader, pool), in shadow mode; each merge
      // setting then merges them as run.ts does (mergeDeep over the primary list read)
      const p = POOLS[poolName];
      const shadow = resolveDeepSearch({ mode: 'shadow', threshold: 1, poolCap: p.poolCap });
      const reads: { read: { id: MemoryId; score: number }[]; scores: ReaderScore[]; merged: boolean }[] = [];
      const ms: number[] = [];
      for (const m of memos) {
        const c = per.get(m.pc)!;
        // without readDepth the primary is the topK-10 run's list, as the app shows it (a deeper run's top
        // 10 differs); the judged answer is the top 30 re-scored, as the app's judge does it
        const list = baseName === 'first' ? (p.readDepth ? m.first : m.first10) : baseName === 'judged' ? m.judgedScored : p.readDepth ? m.refinedScored : m.refined10;
        const primary = p.readDepth ? list : list.slice(0, K);
        const t0 = performance.now();
        const out = await deepSearch({
          query: { text: m.q.question, features: c.f.queryFeatures.get(m.q)! },
          primary,
          topK: K,
          ...(p.readDepth ? { readDepth: p.readDepth } : {}),
          options: shadow,
          source: {
            docs: c.docs,
            ...(p.entities ? { entities: c.graph } : {}),
            ...(p.communities ? { communityOf: (id: MemoryId) => c.communities.get(id) } : {}),
            ...(p.nearest ? { nearest: m.nearest.slice(0, p.nearest) } : {}),
          },
          scope: {},
          candidateOf: c.candidateOf,
          reader: readerOf(readerName, m),
          timers,
          confidenceModel: calibration.confidence,
        });
        ms.push(performance.now() - t0);
        reads.push({ read: p.readDepth ? primary.slice(0, Math.max(K, p.readDepth)) : primary, scores: out.report.scores, merged: out.report.status === 'shadow' });
      }
      for (const { weight, reserve } of weights) {
        const escalatedIds: MemoryId[][] = memos.map((m, i) =>
          reads[i].merged ? mergeDeep(reads[i].read, reads[i].scores, { weight, topK: K, ...(reserve ? { reserve } : {}) }).map((h) => h.id) : base(m),
        );
        for (const threshold of thresholds)
          for (const fold of ['all', 'A', 'B'] as const) {
            const acc = { r: [] as number[], n: [] as number[], mr: [] as number[], t: [] as number[], ms: [] as number[] };
            let missing = 0;
            let recovered = 0;
            let esc = 0;
            let count = 0;
            memos.forEach((m, i) => {
              if (fold !== 'all' && m.fold !== fold) return;
              count++;
              const escalated = m.confidence < threshold;
              const ids = escalated ? escalatedIds[i] : base(m);
              if (escalated) {
                esc++;
                acc.ms.push(ms[i]);
              }
              acc.r.push(recallAt(ids, m.q.evidence, K));
              acc.n.push(ndcgAt(ids, m.q.evidence, K));
              acc.mr.push(mrrAt(ids, m.q.evidence, K));
              acc.t.push(top1At(ids, m.q.evidence));
              const top = new Set(base(m).slice(0, K));
              const fin = new Set(ids.slice(0, K));
              for (const e of m.q.evidence)
                if (!top.has(e)) {
                  missing++;
                  if (fin.has(e)) recovered++;
                }
            });
            const pct = (xs: number[]) => Math.round(mean(xs) * 1000) / 10;
            const r3 = (x: number) => Math.round(x * 1000) / 1000;
            rows.push({
              base: baseName,
              reader: readerName,
              pool: poolName,
              weight,
              ...(reserve ? { reserve } : {}),
              threshold,
              fold,
              r10: pct(acc.r),
              ndcg10: pct(acc.n),
              mrr10: pct(acc.mr),
              top1: pct(acc.t),
              recoveredShare: r3(missing ? recovered / missing : 0),
              invocationRate: r3(count ? esc / count : 0),
              meanMs: r3(acc.ms.length ? mean(acc.ms) : 0),
              p95Ms: r3(acc.ms.length ? percentile(acc.ms, 95) : 0),
            });
          }
        const last = rows.slice(-3 * thresholds.length);
        log(`grid ${baseName} ${readerName} ${poolName} ${reserve ? `k${reserve.keep}s${reserve.slots}` : `w${weight}`}: ${last.map((r) => `t${r.threshold} ${r.fold} ${r.r10}/${r.ndcg10}/${r.mrr10}/${r.top1} rec ${r.recoveredShare} inv ${r.invocationRate}`).join(' | ')}`);
      }
    }
  }
  // the refined (and judged) answer alone (no deep search), by fold: what every row is read against
  for (const [name, answer] of [['none', (m: Memo) => m.refined], ['none-judged', (m: Memo) => m.judged]] as const)
  for (const fold of ['all', 'A', 'B'] as const) {
    const ms = memos.filter((m) => fold === 'all' || m.fold === fold);
    const pct = (xs: number[]) => Math.round(mean(xs) * 1000) / 10;
    rows.push({
      base: name,
      reader: 'none',
      pool: 'none',
      weight: 0,
      threshold: 0,
      fold,
      r10: pct(ms.map((m) => recallAt(answer(m), m.q.evidence, K))),
      ndcg10: pct(ms.map((m) => ndcgAt(answer(m), m.q.evidence, K))),
      mrr10: pct(ms.map((m) => mrrAt(answer(m), m.q.evidence, K))),
      top1: pct(ms.map((m) => top1At(answer(m), m.q.evidence))),
      recoveredShare: 0,
      invocationRate: 0,
      meanMs: 0,
      p95Ms: 0,
    });
  }
  return rows;
}
