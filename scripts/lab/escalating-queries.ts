// Which queries escalate at the shipped trigger (threshold 0.3, the encoder's calibrated confidence)
// on the sample collection, in the app's engine (Node, the default encoder): prints each query's
// first-pass confidence and status, lowest first. Used to pick the e2e's genuinely escalating query
// (e2e/deep-escalation.spec.ts). Run: npx tsx scripts/lab/escalating-queries.ts [query ...]
import { loadSampleEngine } from '../lib/sample-engine';

const DEFAULT_QUERIES = [
  'sourdough', 'bread', 'starter', 'allotment', 'guitar', 'running', 'budget', 'Lisbon', 'Hamburg', 'Oma',
  'Sam', 'Priya', 'Marcus', 'Tomas', 'Noor', 'Dana', 'Jun', 'Mom', 'Harold', 'Elena', 'Leo',
  'what did I do', 'things', 'notes', 'plans', 'today', 'yesterday', 'work', 'a day', 'weekend',
  'tomatoes', 'flaky test', 'postgres index', 'caching', 'race condition', 'dinner', 'coffee',
  'walk', 'rain', 'tired', 'happy', 'sad', 'grief', 'birthday', 'train', 'flight', 'book',
  'reading', 'wood', 'chisel', 'chord', 'practice', 'lesson', 'meeting', 'standup', 'deploy',
  'who helped me', 'when did I', 'why', 'how much money', 'what happened in August',
  'the thing we talked about', 'that place', 'something nice', 'good news', 'bad news',
  'hydration levels of the dough', 'ceramics', 'night shift', 'parental leave', 'mentoring',
  'Lake District', 'hiking', 'the lake', 'grandmother recipe', 'rye', 'jam', 'compost', 'seeds',
];

const env = await loadSampleEngine((m) => console.error(m));
const queries = process.argv.slice(2).length ? process.argv.slice(2) : DEFAULT_QUERIES;
const rows: { q: string; conf: number; status: string; top: number; gap: number; spread: number; n: number }[] = [];
let i = 0;
for (const q of queries) {
  const features = await env.queryFeatures(q);
  const out = await env.core.recall(
    { text: q, features, now: Date.parse('2026-12-01T00:00:00Z'), sessionId: `lab-${i++}` },
    { deepSearch: { mode: 'shadow' } },
  );
  const r = out.deepSearch;
  const std = out.results.filter((x) => x.mode === 'standard');
  // the report is null when confident: recompute the figures from the results' scores
  const c = r?.confidence;
  rows.push({ q, conf: c?.value ?? NaN, status: r?.status ?? 'confident', top: c?.top ?? std[0]?.score ?? 0, gap: c?.gap ?? NaN, spread: c?.spread ?? NaN, n: std.length });
}
rows.sort((a, b) => (a.status === b.status ? 0 : a.status === 'confident' ? 1 : -1));
for (const r of rows) console.log(`${r.status.padEnd(10)} conf ${Number.isNaN(r.conf) ? '  -  ' : r.conf.toFixed(3)} top ${r.top.toFixed(3)} gap ${Number.isNaN(r.gap) ? '-' : r.gap.toFixed(3)} spread ${Number.isNaN(r.spread) ? '-' : r.spread.toFixed(3)} n ${r.n}  ${r.q}`);
console.log(`${rows.filter((r) => r.status !== 'confident').length} of ${rows.length} escalate at the default threshold`);
process.exit(0);
