// The memory table's cost after a write at scale (issue 13): N synthetic docs (tags drawn from a
// Zipf-like vocabulary, a tenth superseded, some archived), then per round one edit, one capture
// and one delete, each followed by what the next DIVERGENT or assocHops query pays for the table:
// the in-place update (`memoryTable`) against a fresh build of the whole table (what it paid
// before), interleaved. CPU time, medians; prints the load average.
//
//   node --expose-gc --import tsx scripts/bench/memory-table.ts [--n 100000] [--rounds 20]
import { loadavg } from 'node:os';
import type { RecallDoc } from '../../src/core/recall';
import { MemoryTable, memoryTable } from '../../src/core/pipeline/memory-table';
import { median } from '../lib/metrics';

const arg = (k: string, d: number) => {
  const i = process.argv.indexOf(`--${k}`);
  return i >= 0 ? Number(process.argv[i + 1]) : d;
};
const n = arg('n', 100_000);
const rounds = arg('rounds', 20);
let s = 13;
const rand = () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
const tag = () => `t${Math.floor(1 / (rand() + 0.001))}`;
const doc = (i: number): RecallDoc => ({
  tags: Array.from({ length: Math.floor(rand() * 4) }, tag),
  importance: rand(),
  status: rand() < 0.05 ? 'archived' : 'active',
  createdAt: Date.UTC(2026, 0, 1) - i * 60_000,
  validFrom: Date.UTC(2026, 0, 1) - i * 60_000,
  ...(rand() < 0.1 ? { supersededBy: `m${i + 1}` } : {}),
});
const docs = new Map<string, RecallDoc>();
for (let i = 0; i < n; i++) docs.set(`m${i}`, doc(i));
const src = { version: 0, forEachDoc: (fn: (d: RecallDoc, id: string) => void) => docs.forEach(fn) };
memoryTable(src);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const times: Record<string, number[]> = { update: [], fresh: [] };
let next = n;
for (let r = 0; r < rounds; r++) {
  for (const write of ['edit', 'capture', 'delete']) {
    const id = `m${Math.floor(rand() * n)}`;
    if (write === 'edit' && docs.has(id)) docs.set(id, { ...docs.get(id)!, tags: [tag()] });
    else if (write === 'capture') docs.set(`m${next++}`, doc(next));
    else docs.delete(id);
    src.version++;
    const order = r % 2 === 0 ? ['update', 'fresh'] : ['fresh', 'update'];
    for (const how of order) {
      const t0 = cpu();
      if (how === 'update') memoryTable(src);
      else new MemoryTable(src.version, src);
      times[how].push(cpu() - t0);
    }
  }
}
const u = median(times.update);
const f = median(times.fresh);
console.log(JSON.stringify({ n, rounds, updateMs: +u.toFixed(2), freshBuildMs: +f.toFixed(2), ratio: +(u / f).toFixed(3), load1m: +loadavg()[0].toFixed(1) }));
