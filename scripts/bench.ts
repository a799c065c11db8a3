// `npm run bench`: every benchmark section in one process, printing figures and ratios.
// Benchmarks never fail a build on a timing; a section that cannot run says why and the rest go on.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const SECTIONS = [
  ['encoder (Node, tfjs WASM)', 'bench/encoder.ts'],
  ['encoders side by side: MiniLM, USE-lite and the judge (Node)', 'bench/encoders.ts'],
  ['encoders side by side: MiniLM, USE-lite and the judge (Chromium, WASM)', 'bench/browser-encoders.ts'],
  ['spaces featurizing (Node)', 'bench/spaces.ts'],
  ['core query latency (Node)', 'bench/core.ts'],
  ['recall paths (Node)', 'bench/recall.ts'],
  ['backup export / import (Node)', 'bench/backup.ts'],
  ['the full list at 100k (Node, fake-indexeddb)', 'bench/browse.ts'],
  ['browser: workers in Chromium', 'bench/browser.ts'],
  ['graph: layout and frames in Chromium', 'bench/graph.ts'],
] as const;

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const all: Record<string, Record<string, number>> = {};
for (const [title, rel] of SECTIONS) {
  if (only.length && !only.some((o) => rel.includes(o))) continue;
  const file = join(here, rel);
  if (!existsSync(file)) {
    console.log(`\n## ${title}\n(skipped: ${rel} not present)`);
    continue;
  }
  console.log(`\n## ${title}`);
  try {
    const mod = (await import(pathToFileURL(file).href)) as { run: () => Promise<Record<string, number>> };
    all[rel] = await mod.run();
  } catch (e) {
    console.log(`(section failed: ${(e as Error).message})`);
  }
}
if (process.argv.includes('--json')) console.log(JSON.stringify(all, null, 2));
const mem = process.memoryUsage();
console.log(`\nprocess peak-ish RSS ${(mem.rss / 2 ** 20).toFixed(0)} MiB, heap used ${(mem.heapUsed / 2 ** 20).toFixed(0)} MiB`);
