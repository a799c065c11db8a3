// Explore measurements on the sample collection, with the app's engine and the real encoder:
//
//   npx tsx scripts/measure-explore.ts [--dump] [--json]
//
// 1. Divergence: how often the alert fires, before (any one space below its low threshold) and
//    after (the evidence gate of src/core/spaces/divergence-gate.ts):
//    a. every sample query (the lateral-pair and chain queries of src/sample/README.md) against
//       every sample session as the recent work (now = 5 minutes after the session's last
//       memory); "on topic" = the session holds the query's designed direct hit or a chain step;
//       "off topic" = no memory of the session shares a tag with the direct hit (the lateral
//       bridge tag left out); the rest are neither.
//    b. the session scripts of scripts/lib/explore-sessions.ts (captures and queries of one
//       sitting, each judged "about the same work" or "about something else").
// 2. Chains: associative results per query with 3 hops, before / after the chain filter.
// --dump prints every event's per-space best similarities (to choose the gate's numbers);
// --variants the gate's window / margin / agreeing variants; --lines the meaning line's variants
// on the encoder's scale (SAMPLE_ENCODER=use-lite for USE-lite, else the default encoder).
import { CHAINS, LATERAL_PAIRS } from '../src/sample/design';
import { DEFAULT_SIMILARITY_CONFIG, NON_TEMPORAL_SPACES, deserializeFeatures, divergenceSimilarities, type SpaceSims } from '../src/core/spaces';
import { loadSampleEngine, type SampleEngine } from './lib/sample-engine';
import { SESSION_SCRIPTS } from './lib/explore-sessions';
import type { SpaceId } from '../src/core/types';
import { DIVERGENCE_GATE, divergenceVerdict, sameTopic } from '../src/core/spaces/divergence-gate';
import type { DivergenceAlert } from '../src/core/spaces';
import { keepChains, MIN_STEP_COSINE, stepsClose } from '../src/ui/explore/chains';
import { encoderMeta, onEncoderScale } from '../src/embed/encoders';
import { SCALED_MEANING_MARGIN } from '../workers/engine-encoder-scale';

const args = process.argv.slice(2);
const DUMP = args.includes('--dump');
const JSON_OUT = args.includes('--json');
const log = (m: string) => {
  if (!JSON_OUT) console.log(m);
};

/** One divergence check: what the engine saw and what each rule says. */
interface Event {
  scenario: string;
  label: 'on' | 'off' | 'neither';
  text: string;
  windowSize: number;
  /** Earlier captures / recalls in the same session. */
  earlier: number;
  alerts: SpaceId[];
  raw: DivergenceAlert[];
  centroid: Float32Array | null;
  ids: string[];
  script: string;
  best: SpaceSims;
  /** The gate's meaning line on the encoder's scale (the engine's), if it moved it. */
  meaningLine?: number;
}

function bestSims(env: SampleEngine, current: ReturnType<typeof deserializeFeatures>, ids: string[]): SpaceSims {
  const best: SpaceSims = {};
  for (const id of ids) {
    const f = env.featuresOf(id);
    if (!f) continue;
    const s = divergenceSimilarities(current, f);
    for (const sp of NON_TEMPORAL_SPACES) {
      const v = s[sp];
      if (v !== undefined && (best[sp] === undefined || v > best[sp]!)) best[sp] = v;
    }
  }
  return best;
}

async function sampleQueries(env: SampleEngine): Promise<Event[]> {
  const startsWith = (p: string) => env.memories.find((m) => m.text.startsWith(p))!;
  const queries = [
    ...LATERAL_PAIRS.map((l) => ({ text: l.query, direct: [startsWith(l.members[0].startsWith)], bridge: l.tag })),
    ...CHAINS.map((c) => ({ text: c.query, direct: c.steps.map(startsWith), bridge: '' })),
  ];
  const sessions = new Map<string, typeof env.memories>();
  for (const m of env.memories) sessions.set(m.sessionId, [...(sessions.get(m.sessionId) ?? []), m]);
  const out: Event[] = [];
  for (const q of queries) {
    const sf = await env.queryFeatures(q.text);
    const current = deserializeFeatures(sf);
    const directTags = new Set(q.direct.flatMap((d) => d.tags).filter((t) => t !== q.bridge));
    const directIds = new Set(q.direct.map((d) => d.id));
    for (const [sid, members] of sessions) {
      const now = members[members.length - 1].at + 5 * 60_000;
      const d = env.core.divergence({ features: sf, now, sessionId: 'measure' });
      const ids = d.recent.map((r) => r.id);
      const inWindow = env.memories.filter((m) => ids.includes(m.id));
      const label = inWindow.some((m) => directIds.has(m.id))
        ? 'on'
        : inWindow.every((m) => !m.tags.some((t) => directTags.has(t)))
          ? 'off'
          : 'neither';
      out.push({ scenario: `sample:${sid}`, label, text: q.text, windowSize: ids.length, earlier: 1, alerts: d.alerts.map((a) => a.embedder), raw: d.alerts, centroid: d.topic.centroid, ids, script: 'sample', best: bestSims(env, current, ids), meaningLine: d.meaningLine });
    }
  }
  return out;
}

async function sessionScripts(env: SampleEngine): Promise<Event[]> {
  const out: Event[] = [];
  let n = 0;
  for (const script of SESSION_SCRIPTS) {
    const t0 = Date.parse(script.start);
    let session = `${script.name}#0`;
    let sessions = 0;
    let earlier = 0;
    let position = 0;
    let last = -Infinity;
    for (const step of script.steps) {
      const at = t0 + step.min * 60_000;
      if (step.newSession || at - last > 30 * 60_000) {
        if (last !== -Infinity) {
          session = `${script.name}#${++sessions}`;
          earlier = 0;
          position = 0;
        }
      }
      last = at;
      let sf;
      let exclude: string | undefined;
      if (step.kind === 'capture') {
        exclude = `c${n++}`;
        sf = (await env.capture(exclude, step.text, at, session, position++, step.tags)).spaces;
      } else {
        sf = await env.queryFeatures(step.text);
      }
      const current = deserializeFeatures(sf);
      const d = env.core.divergence({ features: sf, now: at, sessionId: session, excludeId: exclude });
      const ids = d.recent.map((r) => r.id);
      out.push({
        scenario: `${script.name}:${step.kind}`,
        label: step.about === 'same' ? 'on' : 'off',
        text: step.text,
        windowSize: ids.length,
        earlier,
        alerts: d.alerts.map((a) => a.embedder),
        raw: d.alerts,
        centroid: d.topic.centroid,
        ids,
        script: script.name,
        best: bestSims(env, current, ids),
        meaningLine: d.meaningLine,
      });
      earlier++;
    }
  }
  return out;
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)}% (${a}/${b})` : '–');

function rates(name: string, events: Event[], fires: (e: Event) => boolean): Record<string, string> {
  const by = (l: Event['label']) => events.filter((e) => e.label === l && e.windowSize > 0);
  const all = events.filter((e) => e.windowSize > 0);
  const r = {
    rule: name,
    all: pct(all.filter(fires).length, all.length),
    onTopic: pct(by('on').filter(fires).length, by('on').length),
    offTopic: pct(by('off').filter(fires).length, by('off').length),
    neither: pct(by('neither').filter(fires).length, by('neither').length),
  };
  log(`  ${name.padEnd(8)} all ${r.all.padEnd(20)} on topic ${r.onTopic.padEnd(18)} off topic ${r.offTopic.padEnd(20)} neither ${r.neither}`);
  return r;
}

/** Associative results per sample query (BALANCED, 3 hops), before and after keepChains. */
async function chainCounts(env: SampleEngine) {
  const queries = [...LATERAL_PAIRS.map((l) => l.query), ...CHAINS.map((c) => c.query)];
  const rows: { query: string; direct: number; before: number; after: number; weakSteps: number }[] = [];
  for (const text of queries) {
    const features = await env.queryFeatures(text);
    const out = await env.core.recall({ text, features, now: Date.parse('2026-12-01T00:00:00Z'), sessionId: 'measure' }, { assocHops: 3 });
    const direct = out.results.filter((r) => r.mode !== 'associative').length;
    const assoc = out.results.filter((r) => r.mode === 'associative');
    const { kept } = keepChains(out.results);
    rows.push({ query: text, direct, before: assoc.length, after: kept.filter((r) => r.mode === 'associative').length, weakSteps: assoc.filter((r) => !stepsClose(r)).length });
    if (DUMP) for (const r of assoc) console.log(`  ${text.slice(0, 30).padEnd(30)} ${r.score.toFixed(3)} ${(r.chain ?? []).map((c) => `${c.hop}:${c.cosine.toFixed(2)}`).join(' ')}`);
  }
  // the designed chains (src/sample/design.ts): how many of their steps 2-4 appear, before and after
  let designed = 0;
  let designedBefore = 0;
  let designedAfter = 0;
  for (const c of CHAINS) {
    const ids = c.steps.slice(1).map((p) => env.memories.find((m) => m.text.startsWith(p))!.id);
    const features = await env.queryFeatures(c.query);
    const out = await env.core.recall({ text: c.query, features, now: Date.parse('2026-12-01T00:00:00Z'), sessionId: 'measure' }, { assocHops: 3 });
    const shown = (rs: typeof out.results) => new Set(rs.flatMap((r) => [r.id, ...(r.mode === 'associative' ? (r.chain ?? []).map((x) => x.id) : [])]));
    const before = shown(out.results);
    const after = shown(keepChains(out.results).kept);
    designed += ids.length;
    designedBefore += ids.filter((id) => before.has(id)).length;
    designedAfter += ids.filter((id) => after.has(id)).length;
  }
  log(`designed chain steps 2-4 shown (as results or inside a shown chain): before ${designedBefore}/${designed}, after ${designedAfter}/${designed}`);
  const sum = (k: 'direct' | 'before' | 'after' | 'weakSteps') => rows.reduce((a, r) => a + r[k], 0);
  const max = (k: 'before' | 'after') => Math.max(...rows.map((r) => r[k]));
  log(`\nChains (${rows.length} sample queries, 3 hops): direct hits ${sum('direct')}; associative results before ${sum('before')} (mean ${(sum('before') / rows.length).toFixed(1)}, max ${max('before')}; ${sum('weakSteps')} with a step below ${MIN_STEP_COSINE}), after ${sum('after')} (mean ${(sum('after') / rows.length).toFixed(1)}, max ${max('after')})`);
  return { designed, designedBefore, designedAfter, queries: rows.length, direct: sum('direct'), before: sum('before'), after: sum('after'), weakSteps: sum('weakSteps'), maxBefore: max('before'), maxAfter: max('after') };
}

async function main() {
  const env = await loadSampleEngine(log);
  const low = DEFAULT_SIMILARITY_CONFIG.lowThresholds;
  const a = await sampleQueries(env);
  const b = await sessionScripts(env);
  if (DUMP) {
    for (const e of [...b, ...a.filter((x) => x.label !== 'neither')]) {
      const sims = NON_TEMPORAL_SPACES.filter((s) => e.best[s] !== undefined)
        .map((s) => `${s}=${e.best[s]!.toFixed(2)}${e.best[s]! < low[s] ? '*' : ''}`)
        .join(' ');
      console.log(`${e.label.padEnd(3)} w${e.windowSize} n${e.earlier} ${e.scenario.padEnd(34)} ${e.text.slice(0, 40).padEnd(40)} ${sims}`);
    }
  }
  const before = (e: Event) => e.alerts.length > 0;
  const after = (e: Event) => divergenceVerdict({ alerts: e.raw, windowSize: e.windowSize, earlierActions: e.earlier, meaningLine: e.meaningLine }).show;
  log('\nDivergence alert fired, a. sample queries x sample sessions (as the 2nd action of a sitting):');
  const ra = [rates('before', a, before), rates('after', a, after)];
  log('b. session scripts:');
  const rb = [rates('before', b, before), rates('after', b, after)];
  // the person dismisses every banner shown: later ones about the same recent topic stay quiet
  const dismissed: { centroid: Float32Array | null; ids: string[]; script: string }[] = [];
  const shownAfterDismiss = new Set<Event>();
  for (const e of b) {
    if (!after(e) || dismissed.some((d) => d.script === e.script && sameTopic(d, e))) continue;
    dismissed.push(e);
    shownAfterDismiss.add(e);
  }
  rb.push(rates('+dismiss', b, (e) => shownAfterDismiss.has(e)));
  if (DUMP) for (const e of b) if (after(e) !== (e.label === 'off')) console.log(`  ${after(e) ? 'FIRES ' : 'quiet '} ${e.label} ${e.text}: ${divergenceVerdict({ alerts: e.raw, windowSize: e.windowSize, earlierActions: e.earlier, meaningLine: e.meaningLine }).reason}`);
  if (args.includes('--variants')) {
    log('\nVariants of the gate (window / margin / agreeing):');
    for (const minWindow of [1, 2]) for (const meaningMargin of [0, 0.05, 0.1]) for (const minAgreeing of [2, 3, 4]) {
      const rule = { ...DIVERGENCE_GATE, minWindow, meaningMargin, minAgreeing };
      const f = (e: Event) => divergenceVerdict({ alerts: e.raw, windowSize: e.windowSize, earlierActions: e.earlier, meaningLine: e.meaningLine }, rule).show;
      log(`w>=${minWindow} margin ${meaningMargin} agree>=${minAgreeing}`);
      rates('sample', a, f);
      rates('scripts', b, f);
    }
  }
  if (args.includes('--lines')) {
    // the gate's meaning line moved on the encoder's scale: USE-lite's line at 0.30 - margin, mapped
    log('\nMeaning lines (USE-lite cosine, on this encoder\'s scale):');
    for (const margin of [0, SCALED_MEANING_MARGIN, 0.05, 0.08]) {
      const meta = encoderMeta(env.encoder.info().id);
      const line = meta ? onEncoderScale(meta, DEFAULT_SIMILARITY_CONFIG.lowThresholds.E1 - margin) : DEFAULT_SIMILARITY_CONFIG.lowThresholds.E1 - margin;
      const f = (e: Event) => divergenceVerdict({ alerts: e.raw, windowSize: e.windowSize, earlierActions: e.earlier, meaningLine: line }).show;
      log(`margin ${margin} -> line ${line.toFixed(3)}`);
      rates('sample', a, f);
      rates('scripts', b, f);
    }
  }
  const chains = await chainCounts(env);
  if (JSON_OUT) console.log(JSON.stringify({ sample: ra, sessions: rb, chains }, null, 2));
  env.encoder.dispose();
}

void main();
