// Fill the judge's on-disk vector cache (scripts/lib/embedding-cache.ts) for every memory text and
// question of a LoCoMo-format file, so the eval's judge rows (eval-judge.ts, the deep-search judge
// reader) start from cached vectors:  npx tsx scripts/lab/judge-fill.ts [data.json]
import { MPNET_JUDGE } from '../../src/embed/encoders';
import { embedCached } from '../lib/embedding-cache';
import { loadLocomo } from '../lib/locomo';
import { loadNodeTransformers } from '../lib/node-transformers';

const path = process.argv[2] ?? '/work/shared/data/locomo-dev.json';
const convs = await loadLocomo(path);
const texts = [...new Set(convs.flatMap((c) => [...c.memories.map((m) => m.text), ...c.queries.map((q) => q.question)]))];
const model = loadNodeTransformers(MPNET_JUDGE);
const encoder = {
  info: () => ({ id: MPNET_JUDGE.id, name: MPNET_JUDGE.name, dim: MPNET_JUDGE.dim, backend: 'cpu' as const, maxInputChars: 0 }),
  embed: async (t: string[]) => (await model).embed(t),
};
const t0 = Date.now();
await embedCached(encoder, texts, { chunk: 64, onProgress: (d, t) => console.log(`${d}/${t} in ${Math.round((Date.now() - t0) / 1000)} s`) });
await (await model).dispose();
console.log(`done: ${texts.length} texts in ${Math.round((Date.now() - t0) / 1000)} s`);
