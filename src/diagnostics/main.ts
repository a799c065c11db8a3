// diagnostics.html: starts the embed bridge, shows its load phases and backend, and exposes a
// small typed test API on window for e2e tests and in-browser benchmarks.
import { createEmbedBridge } from '../bridge/embed-bridge';
import { MPNET_JUDGE } from '../embed/encoders';
import type { EmbedderInfo, EmbedLoadProgress } from '../embed/types';
import { benchEmbedder, judgeBench, type BrowserBenchResult, type JudgeBenchResult } from './bench';
import { engineBench, measureAgentMemory, type AgentMemory, type EngineBenchResult } from './engine-bench';

export interface DiagApi {
  embed(texts: string[]): Promise<Float32Array[]>;
  /** Late interaction's token matrices (ids and row-major vectors as plain arrays); null: none (USE-lite). */
  tokens(texts: string[]): Promise<{ ids: number[]; vectors: number[]; dim: number }[] | null>;
  info(): EmbedderInfo;
  ready: Promise<EmbedderInfo>;
  loadMs(): number | null;
  bench(count?: number, batch?: number): Promise<BrowserBenchResult>;
  /** Every load-progress event seen so far, in order. */
  history(): EmbedLoadProgress[];
  /**
   * A fresh engine worker (via the engine bridge) with n synthetic memories; end-to-end search
   * and recall latency over `queries` queries. The worker is disposed afterwards.
   */
  engineBench(n: number, queries?: number): Promise<EngineBenchResult>;
  /** performance.memory.usedJSHeapSize of this page (workers excluded); null when not exposed. */
  heap(): number | null;
  /** Page + workers memory (measureUserAgentSpecificMemory; cross-origin isolated pages only), or null. */
  memory(): Promise<AgentMemory | null>;
  /** Careful ranking's judge in its own worker (scripts/bench/browser-judge.ts): see judgeBench. */
  judgeBench(n: number, opts?: { graphOptimization?: 'disabled' | 'basic' | 'extended' | 'all' }): Promise<JudgeBenchResult>;
}

declare global {
  interface Window {
    __diag: DiagApi;
  }
}

const params = new URLSearchParams(location.search);
const wanted = params.get('backend');
const backend = wanted === 'wasm' || wanted === 'webgpu' ? wanted : 'auto';
// ?encoder=<id> runs that encoder (default: the app's, MiniLM); ?nofallback fails instead of falling
// back to USE-lite; ?models=<path> looks for Transformers.js model folders there (e2e: an empty one).
// ?encoder=all-mpnet-base-v2-int8 runs the judge as an encoder (the encoders bench measures it).
const encoder = params.get('encoder') ?? undefined;
const judgeEntry = encoder === MPNET_JUDGE.id ? { entry: { ...MPNET_JUDGE, summary: 'the judge (bench)' } } : {};
const modelsUrl = params.get('models') ?? undefined;
// ?threads=N: onnxruntime-web's WASM threads for Transformers.js models (bench comparisons)
const wasmThreads = params.has('threads') ? Number(params.get('threads')) : undefined;
// ?opt=disabled|basic|extended|all: onnxruntime's graph optimisation (start-up comparisons)
const optParam = params.get('opt');
const graphOptimization = optParam === 'disabled' || optParam === 'basic' || optParam === 'extended' || optParam === 'all' ? optParam : undefined;

const el = (id: string) => document.querySelector<HTMLElement>(`[data-testid="${id}"]`)!;
// ?software lets 'auto' try a software WebGPU adapter (normally declined as slower than WASM), so
// e2e can drive the automatic fallback after a failed WebGPU warm-up.
const bridge = createEmbedBridge({
  init: { backend, encoder, ...judgeEntry, modelsUrl, wasmThreads, graphOptimization, ...(params.get('ort') === 'plain' && { ortBuild: 'plain' as const }), ...(params.get('ort') === 'asyncify' && { ortBuild: 'asyncify' as const }), allowSoftwareWebGpu: params.has('software'), ...(params.has('nofallback') && { fallbackEncoder: null }) },
});
const started = performance.now();
let loadMs: number | null = null;

const history: EmbedLoadProgress[] = [];
bridge.onProgress((p) => {
  history.push(p);
  el('encoder-phase').textContent = p.phase;
  if (p.backend) el('encoder-backend').textContent = p.backend;
  if (p.encoder) el('encoder-id').textContent = p.encoder;
  if (p.message) el('encoder-message').textContent = p.message;
  const bar = el('encoder-progress') as HTMLProgressElement;
  if (p.phase === 'fetching-model' && p.total) {
    bar.max = p.total;
    bar.value = p.loaded ?? 0;
  } else if (p.phase === 'ready') {
    bar.max = 1;
    bar.value = 1;
  }
});

const ready = bridge.ready().then((info) => {
  loadMs = Math.round(performance.now() - started);
  el('encoder-load-ms').textContent = `${loadMs} ms`;
  el('encoder-backend').textContent = info.backend;
  return info;
});
ready.catch((e: unknown) => {
  el('encoder-phase').textContent = 'error';
  el('encoder-message').textContent = e instanceof Error ? `${e.message} ${(e as { detail?: string }).detail ?? ''}` : String(e);
});

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

document.getElementById('embed')!.addEventListener('click', async () => {
  const texts = (document.getElementById('texts') as HTMLTextAreaElement).value.split('\n').filter((t) => t.trim());
  const out = el('encoder-output');
  try {
    const t0 = performance.now();
    const vs = await bridge.embed(texts);
    const ms = performance.now() - t0;
    const lines = [`${vs.length} vectors of ${vs[0]?.length ?? 0} in ${ms.toFixed(0)} ms`];
    for (let i = 1; i < vs.length; i++) lines.push(`cos(1, ${i + 1}) = ${dot(vs[0], vs[i]).toFixed(4)}`);
    out.textContent = lines.join('\n');
  } catch (e) {
    out.textContent = e instanceof Error ? e.message : String(e);
  }
});

document.getElementById('bench')!.addEventListener('click', async () => {
  const out = el('encoder-output');
  out.textContent = 'running...';
  out.textContent = JSON.stringify(await benchEmbedder(bridge), null, 2);
});

window.__diag = {
  embed: (texts) => bridge.embed(texts),
  tokens: async (texts) => (await bridge.tokens(texts))?.map((m) => ({ ids: Array.from(m.ids), vectors: Array.from(m.vectors), dim: m.dim })) ?? null,
  info: () => bridge.info(),
  ready,
  loadMs: () => loadMs,
  bench: (count, batch) => benchEmbedder(bridge, count, batch),
  history: () => history.slice(),
  engineBench: (n, queries) => engineBench(n, { queries }),
  heap: () => (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? null,
  memory: () => measureAgentMemory(),
  judgeBench: (n, opts) => judgeBench(n, opts),
};
