// In-browser engine benchmark: a fresh engine worker (through the real EngineClient bridge) loaded
// with n synthetic memories (seeded random unit vectors, texts from a small word list), then
// end-to-end query latency as the UI sees it: postMessage, the worker's search, structured clone
// of the hits back. Also the worker-side time of the same searches (engine stats), so the
// messaging overhead is visible, and the page's JS heap where Chromium exposes it.
import { createEngineBridge, type EngineClient, type EngineDoc } from '../bridge/engine-bridge';
import { seededUniform } from '../core/features/hash';
import { serializeFeatures, serializeSpace } from '../core/spaces';
import type { WorkerHandle } from '../bridge/worker-lifecycle';

export const ENGINE_BENCH_DIM = 512;

const WORDS = (
  'we went to the lake with my sister and talked about her new job painting pottery class last weekend dog park birthday ' +
  'concert garden recipe train ticket doctor appointment rain coffee book club movie night piano lesson bike repair ' +
  'grandmother letter holiday beach hiking trail camera project deadline meeting budget office kitchen bread'
).split(' ');
const TAGS = ['work', 'family', 'health', 'travel', 'music', 'cooking', 'garden', 'books', 'friends', 'pets', 'home', 'sport'];

/** Deterministic numbers in [0, 1): the core's seeded generator. */
export const seededRandom = seededUniform;

/** A random unit vector (Gaussian components, so directions are uniform). */
export function randomUnitVector(rand: () => number, dim = ENGINE_BENCH_DIM): Float32Array {
  const v = new Float32Array(dim);
  let ss = 0;
  for (let i = 0; i < dim; i++) {
    const g = Math.sqrt(-2 * Math.log(rand() + 1e-12)) * Math.cos(2 * Math.PI * rand());
    v[i] = g;
    ss += g * g;
  }
  const inv = 1 / Math.sqrt(ss);
  for (let i = 0; i < dim; i++) v[i] *= inv;
  return v;
}

function words(rand: () => number, count: number): string {
  return Array.from({ length: count }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
}

/** n synthetic engine docs: ids m000000.., 8-30 words, 1-2 tags, 25 per session, each vector its own buffer. */
export function syntheticDocs(n: number, seed = 11): EngineDoc[] {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`syntheticDocs: n must be a whole number >= 0 (got ${n})`);
  const rand = seededRandom(seed);
  const day = 86_400_000;
  const t0 = Date.UTC(2026, 0, 1);
  const docs: EngineDoc[] = [];
  for (let i = 0; i < n; i++) {
    const createdAt = t0 + Math.floor(rand() * 300) * day;
    const tags = [TAGS[Math.floor(rand() * TAGS.length)]];
    if (rand() < 0.5) tags.push(TAGS[Math.floor(rand() * TAGS.length)]);
    docs.push({
      id: `m${String(i).padStart(6, '0')}`,
      text: words(rand, 8 + Math.floor(rand() * 23)),
      tags: [...new Set(tags)],
      importance: Math.round(rand() * 100) / 100,
      createdAt,
      validFrom: createdAt,
      validTo: null,
      status: 'active',
      sessionId: `s${Math.floor(i / 25)}`,
      features: { E1: serializeSpace('E1', randomUnitVector(rand)) },
    });
  }
  return docs;
}

export interface LatencySummary {
  count: number;
  medianMs: number;
  p95Ms: number;
}

/** Median (mean of the middle pair) and nearest-rank p95 of `times`; NaN for none. */
export function summarize(times: readonly number[]): LatencySummary {
  if (times.length === 0) return { count: 0, medianMs: Number.NaN, p95Ms: Number.NaN };
  const s = [...times].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const medianMs = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  const p95Ms = s[Math.min(s.length, Math.max(1, Math.ceil(0.95 * s.length))) - 1];
  return { count: s.length, medianMs, p95Ms };
}

export interface EngineBenchResult {
  n: number;
  /** Worker start + transfer of n docs + index build, as the bridge's start() sees it. */
  loadMs: number;
  /** The engine's own load time (index build inside the worker). */
  workerLoadMs: number;
  /** End to end through the bridge: HybridIndex.search (top 10, default config). */
  search: LatencySummary;
  /** The same searches timed inside the worker (engine stats lastSearchMs). */
  searchInWorker: LatencySummary;
  /** The ranking pipeline through the bridge (query features: E1 only), lateral off / on. */
  recallBalanced: LatencySummary | null;
  recallDivergent: LatencySummary | null;
  /** Why the recall rows are null (the engine API lacks recall, or it failed). */
  recallError?: string;
  /** performance.memory.usedJSHeapSize of the page (not the workers), when exposed. */
  pageHeapBefore: number | null;
  pageHeapAfter: number | null;
  /** Mean lateral results per timed DIVERGENT recall (0 = no lateral work was timed). */
  lateralPerQuery: number | null;
  /** Page + workers while the loaded engine is alive (null when the browser does not expose it). */
  agentMemory: AgentMemory | null;
}

export interface AgentMemory {
  /** Page + every worker of this agent, bytes. */
  totalBytes: number;
  /** The part attributed to dedicated workers (engine, embed). */
  workerBytes: number;
}

interface MemoryMeasurement {
  bytes: number;
  breakdown: { bytes: number; attribution: { scope?: string }[] }[];
}

/**
 * performance.measureUserAgentSpecificMemory (cross-origin isolated pages only), with a timeout:
 * Chromium may delay the measurement to the next GC unless started with
 * --enable-blink-features=ForceEagerMeasureMemory. Null when unavailable or too slow.
 */
export async function measureAgentMemory(timeoutMs = 30_000): Promise<AgentMemory | null> {
  const p = performance as Performance & { measureUserAgentSpecificMemory?: () => Promise<MemoryMeasurement> };
  if (typeof p.measureUserAgentSpecificMemory !== 'function' || !globalThis.crossOriginIsolated) return null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((ok) => (timer = setTimeout(() => ok(null), timeoutMs)));
  try {
    const m = await Promise.race([p.measureUserAgentSpecificMemory(), timeout]);
    if (!m) return null;
    const workerBytes = m.breakdown
      .filter((b) => b.attribution.some((a) => a.scope === 'DedicatedWorkerGlobalScope'))
      .reduce((s, b) => s + b.bytes, 0);
    return { totalBytes: m.bytes, workerBytes };
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}

function pageHeap(): number | null {
  const m = (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory;
  return m ? m.usedJSHeapSize : null;
}

export interface EngineBenchOptions {
  /** Number of timed queries per path (after 5 untimed warm-up queries). */
  queries?: number;
  /** Timed recall queries per profile (the pipeline is dearer); default min(queries, 50). */
  recallQueries?: number;
  spawn?: () => WorkerHandle;
}

/** Starts a fresh engine worker with n synthetic docs, times queries, disposes the worker. */
export async function engineBench(n: number, opts: EngineBenchOptions = {}): Promise<EngineBenchResult> {
  const queries = opts.queries ?? 100;
  const recallQueries = opts.recallQueries ?? Math.min(queries, 50);
  const heap0 = pageHeap();
  const docs = syntheticDocs(n);
  const rand = seededRandom(97 + n);
  const qs = Array.from({ length: queries + 5 }, () => ({ text: words(rand, 2 + Math.floor(rand() * 4)), vector: randomUnitVector(rand) }));
  const engine: EngineClient = createEngineBridge({
    // No feedback ever arrives here, so the lateral evaluator would switch lateral mode off after
    // its first window (LUR 0 < 0.05) and the later DIVERGENT queries would time no lateral work.
    // A window longer than the run keeps it on.
    source: async () => ({ docs, dim: ENGINE_BENCH_DIM, recallDefaults: { evaluationWindow: 100_000 } }),
    spawn: opts.spawn,
    loadStallMs: 600_000,
    timeoutMs: 60_000,
  });
  try {
    const t0 = performance.now();
    await engine.start();
    const loadMs = performance.now() - t0;
    const workerLoadMs = (await engine.stats()).lastLoadMs;

    for (let i = 0; i < 5; i++) await engine.search(qs[queries + i], { topK: 10 }); // warm-up (JIT)
    const e2e: number[] = [];
    const inside: number[] = [];
    for (let i = 0; i < queries; i++) {
      const s = performance.now();
      await engine.search(qs[i], { topK: 10 });
      e2e.push(performance.now() - s);
      inside.push((await engine.stats()).lastSearchMs);
    }

    let recallBalanced: LatencySummary | null = null;
    let recallDivergent: LatencySummary | null = null;
    let recallError: string | undefined;
    let lateralTotal = 0;
    let lateralQueries = 0;
    try {
      const timeRecall = async (profile: 'BALANCED' | 'DIVERGENT'): Promise<LatencySummary> => {
        const t: number[] = [];
        for (let i = 0; i < recallQueries + 2; i++) {
          const q = qs[i % qs.length];
          const features = serializeFeatures({ E1: q.vector });
          const s = performance.now();
          const out = await engine.recall({ text: q.text, features }, { profile });
          if (i >= 2) t.push(performance.now() - s); // the first two warm up (and build the matrix)
          if (profile === 'DIVERGENT' && i >= 2) {
            lateralTotal += out.results.filter((r) => r.mode === 'lateral').length;
            lateralQueries++;
          }
        }
        return summarize(t);
      };
      recallBalanced = await timeRecall('BALANCED');
      recallDivergent = await timeRecall('DIVERGENT');
    } catch (e) {
      recallError = e instanceof Error ? e.message : String(e);
    }
    const agentMemory = await measureAgentMemory();
    return {
      n,
      loadMs,
      workerLoadMs,
      search: summarize(e2e),
      searchInWorker: summarize(inside),
      recallBalanced,
      recallDivergent,
      recallError,
      pageHeapBefore: heap0,
      pageHeapAfter: pageHeap(),
      lateralPerQuery: lateralQueries > 0 ? lateralTotal / lateralQueries : null,
      agentMemory,
    };
  } finally {
    engine.dispose();
  }
}
