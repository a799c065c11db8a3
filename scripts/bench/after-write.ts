// What one write costs the next divergence / hops query at scale (issue 13), old and new code in
// one process, interleaved: the divergence's recent window (`createdBetween`: before, the whole
// time index sorted again after any change; now kept in place, workers/engine-created.ts) and the
// memory table's rows in the live neighbour matrix (`matrixRows`: before, one lookup per memory
// after any change; now the changed rows and moved ids only). N memories with a vector each, then
// per round a capture, an edit and a delete, each followed by both variants of both. CPU time,
// medians; prints the load average. The answers of old and new are compared every time.
//
//   node --expose-gc --import tsx scripts/bench/after-write.ts [--n 100000] [--rounds 20]
import { loadavg } from 'node:os';
import { seededUniform } from '../../src/core/features/hash';
import { MemoryTable } from '../../src/core/pipeline/memory-table';
import type { NeighbourMatrix, RecallDoc } from '../../src/core/recall';
import { liveMatrix } from '../../src/core/recall/live-matrix';
import { DenseStore } from '../../src/core/vectors';
import { createdBetween } from '../../workers/engine-created';
import { median } from '../lib/metrics';

const arg = (k: string, d: number) => {
  const i = process.argv.indexOf(`--${k}`);
  return i >= 0 ? Number(process.argv[i + 1]) : d;
};
const n = arg('n', 100_000);
const rounds = arg('rounds', 20);
const H = 3_600_000;
const NOW = Date.UTC(2026, 0, 1);

/** The code before this change (workers/engine-divergence.ts at f7159dc^): sorted again after any change. */
const oldIndexes = new WeakMap<object, { version: number; meta: unknown; times: Float64Array; order: Int32Array; ids: string[]; untimed: number[] }>();
function oldCreatedBetween(owner: { version: number }, meta: ReadonlyMap<string, { createdAt: number }>, since: number, now: number): string[] {
  let t = oldIndexes.get(owner);
  if (!t || t.version !== owner.version || t.meta !== meta) {
    const ids = [...meta.keys()];
    const all = ids.map((id) => meta.get(id)!.createdAt);
    const untimed: number[] = [];
    const timed: number[] = [];
    all.forEach((x, i) => (Number.isNaN(x) ? untimed : timed).push(i));
    timed.sort((a, b) => all[a] - all[b] || a - b);
    t = { version: owner.version, meta, ids, untimed, order: Int32Array.from(timed), times: Float64Array.from(timed, (i) => all[i]) };
    oldIndexes.set(owner, t);
  }
  const { times, order } = t;
  let lo = 0;
  let hi = times.length;
  while (lo < hi && !Number.isNaN(since)) {
    const mid = (lo + hi) >> 1;
    if (times[mid] < since) lo = mid + 1;
    else hi = mid;
  }
  const at: number[] = [...t.untimed];
  const open = Number.isNaN(now);
  for (let k = lo; k < times.length && (open || times[k] <= now); k++) at.push(order[k]);
  at.sort((a, b) => a - b);
  return at.map((i) => t.ids[i]);
}

const rand = seededUniform(13);
const dim = 16; // the row map does not read the vectors
const store = new DenseStore({ dim, encoder: 'e', kernel: 'js' });
const docs = new Map<string, RecallDoc>();
const meta = new Map<string, { createdAt: number }>();
const vec = () => Float32Array.from({ length: dim }, () => rand() - 0.5);
let next = 0;
const capture = (at: number) => {
  const id = `m${next++}`;
  docs.set(id, { tags: [], importance: rand(), status: 'active', createdAt: at });
  meta.set(id, { createdAt: at });
  store.set(id, vec());
};
// a few years of memories, minutes apart; the recent window (24 h) holds the last ~1,400
for (let i = 0; i < n; i++) capture(NOW - (n - i) * 60_000);
const matrix = liveMatrix(store);
const src = { version: 0, forEachDoc: (fn: (d: RecallDoc, id: string) => void) => docs.forEach(fn) };
const oldTable = new MemoryTable(0, src);
const newTable = new MemoryTable(0, src);
const oldOwner = { version: 0 };
const newOwner = { version: 0 };
/** The matrix as a new object each time: the old code recomputed every row after a change. */
const asNew = (): NeighbourMatrix => ({ ...matrix, indexOf: matrix.indexOf, version: matrix.version }) as NeighbourMatrix;
oldCreatedBetween(oldOwner, meta, NOW - 24 * H, NOW);
createdBetween(newOwner, meta, NOW - 24 * H, NOW);
oldTable.matrixRows(asNew());
newTable.matrixRows(matrix);

const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const t: Record<'createdOld' | 'createdNew' | 'rowsOld' | 'rowsNew', number[]> = { createdOld: [], createdNew: [], rowsOld: [], rowsNew: [] };
let clock = NOW;
for (let r = 0; r < rounds; r++) {
  for (const write of ['capture', 'edit', 'delete'] as const) {
    const ids = [...meta.keys()];
    const id = ids[Math.floor(rand() * ids.length)];
    if (write === 'capture') capture((clock += 60_000));
    else if (write === 'edit') {
      docs.set(id, { ...docs.get(id)!, tags: ['edited'] });
      meta.set(id, { createdAt: meta.get(id)!.createdAt });
      store.set(id, vec());
    } else {
      docs.delete(id);
      meta.delete(id);
      store.remove(id);
    }
    src.version++;
    oldOwner.version++;
    newOwner.version++;
    oldTable.update(src);
    newTable.update(src);
    let a: string[] = [];
    let b: string[] = [];
    let ra: Int32Array = new Int32Array(0);
    let rb: Int32Array = new Int32Array(0);
    const variants = [
      () => {
        const c = cpu();
        a = oldCreatedBetween(oldOwner, meta, clock - 24 * H, clock);
        t.createdOld.push(cpu() - c);
      },
      () => {
        const c = cpu();
        b = createdBetween(newOwner, meta, clock - 24 * H, clock);
        t.createdNew.push(cpu() - c);
      },
      () => {
        const c = cpu();
        ra = oldTable.matrixRows(asNew());
        t.rowsOld.push(cpu() - c);
      },
      () => {
        const c = cpu();
        rb = newTable.matrixRows(matrix);
        t.rowsNew.push(cpu() - c);
      },
    ];
    for (const k of r % 2 ? [1, 0, 3, 2] : [0, 1, 2, 3]) variants[k]();
    if (a.length !== b.length || a.some((x, i) => x !== b[i])) throw new Error('createdBetween: old and new differ');
    for (let row = 0; row < newTable.size; row++) if (ra[row] !== rb[row]) throw new Error(`matrixRows: old and new differ at row ${row}`);
  }
}
const m = (k: keyof typeof t) => +median(t[k]).toFixed(3);
console.log(
  JSON.stringify({
    n,
    rounds,
    createdBetweenOldMs: m('createdOld'),
    createdBetweenNewMs: m('createdNew'),
    createdRatio: +(m('createdNew') / m('createdOld')).toFixed(3),
    matrixRowsOldMs: m('rowsOld'),
    matrixRowsNewMs: m('rowsNew'),
    rowsRatio: +(m('rowsNew') / m('rowsOld')).toFixed(3),
    load1m: +loadavg()[0].toFixed(1),
  }),
);
