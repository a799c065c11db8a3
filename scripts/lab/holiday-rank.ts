// Why "where are we going on holiday" ranked "Painted the front door" above a conversation about
// a holiday cabin (s5-person's note): the sample collection in the app's engine (default encoder,
// every space), plus what a new person captures in their first minutes (the images e2e's door
// with its caption, a cabin conversation), then the query recalled and plain-searched as the app
// does; the top 10 with their score parts.
//   npx tsx scripts/lab/holiday-rank.ts ["another query"]
import { loadSampleEngine } from '../lib/sample-engine';

const QUERY = process.argv[2] ?? 'where are we going on holiday';
const env = await loadSampleEngine((m) => console.log(m));
const now = Date.parse('2026-11-25T12:00:00Z');
const captured: [string, string][] = [
  ['door', 'Painted the front door on Saturday morning with two coats. [picture: The lighthouse red front door, freshly painted]'],
  ['cabin', 'Talked with Sam over dinner about next summer: a wooden cabin by a lake in Sweden for a week, no laptops. Sam will look at ferries.'],
];
let pos = 0;
for (const [id, text] of captured) await env.capture(id, text, now - 3_600_000 + pos * 60_000, 'first-run', pos++);
const features = await env.queryFeatures(QUERY);
const out = await env.core.recall({ text: QUERY, features, now, sessionId: 'measure' }, { topK: 60 });
const label = (id: string) => (id === 'door' || id === 'cabin' ? `[${id}] ` : '') + (env.memories.find((m) => m.id === id)?.text ?? captured.find(([c]) => c === id)?.[1] ?? id).slice(0, 70);
console.log(`\nrecall "${QUERY}":`);
out.results.slice(0, 16).forEach((r, i) => {
  const w = r.why;
  console.log(`${String(i + 1).padStart(2)} ${r.score.toFixed(3)} ${r.mode.padEnd(8)} lex ${w?.lexical?.toFixed(2) ?? '-'} sem ${w?.semantic?.toFixed(2) ?? '-'} cos ${w?.cosine?.toFixed(3) ?? '-'} bm25 ${w?.bm25?.toFixed(2) ?? '-'} terms ${(w?.matchedTerms ?? []).join(',')}  ${label(r.id)}`);
});
for (const id of ['door', 'cabin']) console.log(`${id}: rank ${out.results.findIndex((r) => r.id === id) + 1 || 'not in results'}`);
process.exit(0);
