// `npm run bench:scale -- ... --trace FILE`: a Chromium trace (CDP Tracing, with the V8 sampling
// profiler) of the last timed reload, from navigation to the first keyword answer, summarised per
// thread (main, the engine and embed workers): the sampled time in the window, the functions with
// the most self time, and for the functions named in FOCUS when they ran (first and last sample,
// ms after navigation) and their inclusive time. Use an unminified bench build for names
// (`MNEMOGRAPH_BENCH=1 npx vite build --outDir DIR --minify false`, then `--dist DIR`).
import { readFileSync, writeFileSync } from 'node:fs';
import type { BrowserContext, CDPSession, Page } from '@playwright/test';

const CATEGORIES = ['devtools.timeline', 'v8.execute', 'blink.user_timing', 'disabled-by-default-devtools.timeline', 'disabled-by-default-v8.cpu_profiler', 'v8'].join(',');
const FOCUS = /^(boot|initServices|doInit|openDb|storeEncoder|createServices|start|loadFromStore|readWordsStart|snapshotOfRows|adoptSnapshot|snapshotProblem|checksumOf|check|unpack|adoptWordsLazy|applyChanged|fillTexts|search|purgeTrash|readTexts|attachStored|probe|deserialize|structuredClone|adoptStored|readEngineStart|engineOfRows|adoptEngine|adoptBuilt|engineSnapshotProblem|streamChecksum|unpackDenseStore|adoptVectors|reattach|currentFeatures|memoryPages|lazyEntities|loadFromStore|onProgress|tell|setState|render)$/;

interface TraceEvent { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; id?: string; args?: { name?: string; data?: Record<string, unknown> } }
interface CpuNode { id: number; parent?: number; callFrame: { functionName: string; url: string } }

export async function startTrace(ctx: BrowserContext, page: Page): Promise<CDPSession> {
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReturnAsStream' });
  return cdp;
}

export async function stopTrace(cdp: CDPSession, file: string, firstKeywordMs: number | null): Promise<Record<string, unknown>> {
  const done = new Promise<string>((ok) => cdp.once('Tracing.tracingComplete', (e) => ok((e as { stream: string }).stream)));
  await cdp.send('Tracing.end');
  const stream = await done;
  let text = '';
  for (;;) {
    const r = (await cdp.send('IO.read', { handle: stream })) as { data: string; eof: boolean; base64Encoded?: boolean };
    text += r.base64Encoded ? Buffer.from(r.data, 'base64').toString() : r.data;
    if (r.eof) break;
  }
  await cdp.send('IO.close', { handle: stream });
  writeFileSync(file, text);
  const parsed = JSON.parse(text) as TraceEvent[] | { traceEvents: TraceEvent[] };
  return summarise(Array.isArray(parsed) ? parsed : parsed.traceEvents, firstKeywordMs);
}

function summarise(events: TraceEvent[], firstKeywordMs: number | null): Record<string, unknown> {
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  const nav = events.find((e) => e.name === 'navigationStart' || e.name === 'NavigationStartToEnd' || (e.name === 'MarkDOMContent' && false));
  const t0 = nav?.ts ?? Math.min(...events.filter((e) => e.ts > 0).map((e) => e.ts));
  const end = t0 + (firstKeywordMs ?? 1e9) * 1000;
  // the sampling profiler: Profile (start time) + ProfileChunk (nodes, samples, time deltas) per thread
  const profiles = new Map<string, { tid: string; start: number; nodes: Map<number, CpuNode>; samples: number[]; deltas: number[] }>();
  for (const e of events) {
    const key = `${e.pid}:${e.id}`;
    if (e.name === 'Profile') profiles.set(key, { tid: `${e.pid}:${e.tid}`, start: (e.args?.data?.startTime as number) ?? e.ts, nodes: new Map(), samples: [], deltas: [] });
    if (e.name === 'ProfileChunk') {
      const p = profiles.get(key);
      const c = (e.args?.data?.cpuProfile ?? {}) as { nodes?: CpuNode[]; samples?: number[] };
      if (!p) continue;
      for (const n of c.nodes ?? []) p.nodes.set(n.id, n);
      p.samples.push(...(c.samples ?? []));
      p.deltas.push(...((e.args?.data?.timeDeltas as number[]) ?? []));
    }
  }
  const out: Record<string, unknown> = { windowMs: firstKeywordMs };
  // tasks over 50 ms on each thread (RunTask), ms after navigation and their length
  const long: Record<string, string[]> = {};
  for (const e of events) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || (e.dur ?? 0) < 50_000 || e.ts < t0 || e.ts > end) continue;
    const k = `${names.get(`${e.pid}:${e.tid}`) ?? 'thread'} ${e.pid}:${e.tid}`;
    (long[k] ??= []).push(`${Math.round((e.ts - t0) / 1000)}+${Math.round((e.dur ?? 0) / 1000)}`);
  }
  out.tasksOver50Ms = long;
  for (const p of profiles.values()) {
    const thread = `${names.get(p.tid) ?? 'thread'} ${p.tid}`; // both workers are 'DedicatedWorker thread'
    const self = new Map<string, number>();
    const incl = new Map<string, { ms: number; first: number; last: number }>();
    /** Per 100 ms after navigation: busy ms and the function with the most self time. */
    const buckets = new Map<number, Map<string, number>>();
    let t = p.start;
    let sampled = 0;
    for (let i = 0; i < p.samples.length; i++) {
      const dt = p.deltas[i] ?? 0;
      t += dt;
      if (t < t0 || t > end) continue;
      const node = p.nodes.get(p.samples[i]);
      if (!node) continue;
      const ms = Math.max(0, p.deltas[i + 1] ?? dt) / 1000;
      const name = node.callFrame.functionName || '(anonymous)';
      if (name === '(idle)' || name === '(program)') continue;
      sampled += ms;
      const label = `${name} ${(node.callFrame.url ?? '').split('/').pop() ?? ''}`.trim();
      self.set(label, (self.get(label) ?? 0) + ms);
      const bucket = Math.floor((t - t0) / 100_000);
      const bm = buckets.get(bucket) ?? new Map<string, number>();
      bm.set(label, (bm.get(label) ?? 0) + ms);
      buckets.set(bucket, bm);
      const seen = new Set<string>();
      for (let n: CpuNode | undefined = node; n; n = n.parent !== undefined ? p.nodes.get(n.parent) : undefined) {
        const f = n.callFrame.functionName;
        if (!FOCUS.test(f) || seen.has(f)) continue;
        seen.add(f);
        const at = (t - t0) / 1000;
        const x = incl.get(f) ?? { ms: 0, first: at, last: at };
        x.ms += ms;
        x.last = at;
        incl.set(f, x);
      }
    }
    if (sampled < 5) continue;
    const r = (x: number) => Math.round(x);
    out[thread] = {
      sampledMs: r(sampled),
      topSelf: [...self].sort((a, b) => b[1] - a[1]).slice(0, 20).map(([k, v]) => `${r(v)} ms ${k}`),
      timeline: [...buckets].sort((a, b) => a[0] - b[0]).map(([b, m]) => {
        const busy = [...m.values()].reduce((x, y) => x + y, 0);
        const top = [...m].sort((x, y) => y[1] - x[1])[0];
        return `${b * 100}: ${r(busy)} ms busy, most ${top[0]} ${r(top[1])}`;
      }),
      focus: Object.fromEntries([...incl].sort((a, b) => a[1].first - b[1].first).map(([k, v]) => [k, `${r(v.ms)} ms, ${r(v.first)}-${r(v.last)} ms after navigation`])),
    };
  }
  return out;
}

/** `npx tsx scripts/bench/scale-trace.ts TRACE.json FIRST_KEYWORD_MS`: the summary of a saved trace. */
if (process.argv[1]?.endsWith('scale-trace.ts')) {
  const parsed = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as TraceEvent[] | { traceEvents: TraceEvent[] };
  console.log(JSON.stringify(summarise(Array.isArray(parsed) ? parsed : parsed.traceEvents, Number(process.argv[3])), null, 1));
}
