// Measures the sample collection's designed lateral pairs with the app's own recall, in Node:
// the real USE-lite encoder, every space's featurizer, the services over fake-indexeddb and the
// real engine (over a MessageChannel), the sample imported as the app's "Load sample collection"
// does, then each pair's query recalled with DIVERGENT and no typed tags (the query's tags are
// derived from its top hits, as in the app). A pair "surfaces" when a designed cross-domain member
// (members after the first) is among the lateral results.
// Run: npx tsx scripts/measure-sample-lateral.ts   (a few minutes on 2 cores)
import 'fake-indexeddb/auto';
import { LATERAL_PAIRS } from '../src/sample/design';
import { loadSampleMemories } from '../src/sample';
import { loadNodeEncoder } from './lib/node-encoder';
import { loadNodeResources } from './lib/resources-node';
import { createLocalFeaturizer } from '../src/testing/encoder';
import { createChannelEngine } from '../src/testing/engine';
import { createLocalParser } from '../src/testing/io';
import { initServices } from '../src/services';

const t0 = performance.now();
const encoder = await loadNodeEncoder({ batchSize: 32 });
const resources = await loadNodeResources();
const engine = createChannelEngine();
const s = await initServices({
  dbName: `sample-lateral-${Date.now()}`,
  embedder: encoder,
  featurizer: createLocalFeaturizer(encoder, resources),
  engine: engine.factory,
  parser: createLocalParser(),
});
const items = await loadSampleMemories();
await s.importMemories(
  items.map((m) => ({ text: m.text, tags: m.tags, importance: m.importance, source: m.source, createdAt: Date.parse(m.createdAt), sessionId: m.sessionId, media: m.media })),
  { batchSize: 32 },
);
console.log(`sample imported: ${items.length} memories in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

let withLateral = 0;
let surfaced = 0;
for (const p of LATERAL_PAIRS) {
  const out = await s.recall(p.query, { profile: 'DIVERGENT' });
  const lateral = out.results.filter((v) => v.result.mode === 'lateral');
  const far = p.members.slice(1);
  const hit = far.filter((m) => lateral.some((v) => v.memory.text.startsWith(m.startsWith)));
  if (lateral.length > 0) withLateral++;
  if (hit.length > 0) surfaced++;
  console.log(
    `${hit.length > 0 ? 'yes' : 'no '}  #${p.tag.padEnd(15)} lateral ${lateral.length}; designed ${hit.length}/${far.length}` +
      (hit.length === 0 && lateral.length > 0 ? `; instead: ${lateral.slice(0, 2).map((v) => `"${v.memory.text.slice(0, 40)}"`).join(', ')}` : ''),
  );
}
console.log(`\n${withLateral} of ${LATERAL_PAIRS.length} queries return lateral hits; ${surfaced} of ${LATERAL_PAIRS.length} include a designed cross-domain member.`);
s.dispose();
encoder.dispose();
process.exit(0);
