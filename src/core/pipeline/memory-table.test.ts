// The memory table's columns against the lookups they replace: the status gate per memory, and the
// associative walk's closed rows (gate, suppressed, shadowed earlier versions, rows it lacks).
import { describe, expect, it } from 'vitest';
import { buildNeighbourMatrix, FeedbackState, type RecallDoc } from '../recall';
import { isRecallable, type StatusGate } from '../status';
import { closeRows } from './associative';
import { MemoryTable, memoryTable } from './memory-table';
import { isShadowed } from './temporal';
import { resolveRecallOptions } from '../recall';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 0, 1);

function docsOf(seed: number): Map<string, RecallDoc> {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  const docs = new Map<string, RecallDoc>();
  for (let i = 0; i < 300; i++) {
    const u = rand();
    docs.set(`m${String(i).padStart(3, '0')}`, {
      tags: rand() < 0.5 ? ['a'] : [],
      importance: rand(),
      status: u < 0.1 ? 'archived' : u < 0.2 ? 'quarantined' : 'active',
      createdAt: NOW - Math.floor(rand() * 100) * DAY,
      ...(rand() < 0.1 ? { deletedAt: NOW } : {}),
      ...(rand() < 0.8 ? { validFrom: NOW - Math.floor(rand() * 100) * DAY } : {}),
      ...(rand() < 0.3 ? { validTo: rand() < 0.3 ? null : NOW - Math.floor(rand() * 50) * DAY } : {}),
      ...(i > 0 && rand() < 0.1 ? { supersededBy: `m${String(i - 1).padStart(3, '0')}` } : {}),
    });
  }
  return docs;
}

const gates: StatusGate[] = [
  {},
  { includeArchived: true },
  { includeQuarantined: true, includeArchived: true },
  { asOf: NOW - 40 * DAY },
  { asOf: NOW - 40 * DAY, includeArchived: true },
  { asOf: null },
];

describe('MemoryTable', () => {
  it('recallable(row, gate) is isRecallable(doc, gate) for every memory and gate', () => {
    for (let seed = 1; seed <= 5; seed++) {
      const docs = docsOf(seed);
      const t = new MemoryTable(0, { version: 0, forEachDoc: (fn) => docs.forEach(fn) });
      expect(t.ids).toEqual([...docs.keys()]);
      for (const g of gates) {
        const got = t.ids.map((_, r) => t.recallable(r, g));
        expect(got).toEqual([...docs.values()].map((d) => isRecallable(d, g)));
        expect(got.some(Boolean) && !got.every(Boolean)).toBe(true);
      }
    }
  });

  it('is rebuilt when the source changes, kept otherwise', () => {
    const docs = docsOf(9);
    const src = { version: 1, forEachDoc: (fn: (d: RecallDoc, id: string) => void) => docs.forEach(fn) };
    const t = memoryTable(src);
    expect(memoryTable(src)).toBe(t);
    docs.set('new', { tags: [], importance: 1, status: 'active', createdAt: NOW });
    src.version = 2;
    const u = memoryTable(src);
    expect(u).not.toBe(t);
    expect(u.rowOf.get('new')).toBe(300);
  });

  it("closeRows closes exactly the rows the walk's lookup per memory refuses", () => {
    for (let seed = 1; seed <= 5; seed++) {
      const docs = docsOf(seed);
      // one memory in ten without a vector; one vector whose memory the table does not hold
      const ids = [...docs.keys()].filter((_, i) => i % 10 !== 3);
      const matrix = buildNeighbourMatrix([...ids, 'ghost'], (id) => Float32Array.of(id.length, id.charCodeAt(id.length - 1) % 7, 1));
      const docOf = (id: string) => docs.get(id);
      const feedback = new FeedbackState();
      ids.filter((_, i) => i % 13 === 0).forEach((id, i) => feedback.record({ kind: 'suppress', id, at: NOW + i }));
      const t = new MemoryTable(0, { version: 0, forEachDoc: (fn) => docs.forEach(fn) });
      for (const g of gates) {
        const o = resolveRecallOptions({ assocHops: 1, includeArchived: g.includeArchived, includeQuarantined: g.includeQuarantined, asOf: g.asOf ?? null });
        const want = Uint8Array.from(matrix.ids, (id) => {
          const d = docOf(id);
          return isRecallable(d, o) && !feedback.isSuppressed(id) && !isShadowed(d, docOf, o) ? 0 : 1;
        });
        const got = new Uint8Array(matrix.ids.length);
        closeRows(t, { matrix, docOf, feedback }, o, got);
        expect(got).toEqual(want);
        expect(got[matrix.indexOf.get('ghost')!]).toBe(1);
      }
    }
  });
});

describe('memoryTable over the hybrid index', () => {
  it('follows every upsert, vector change and removal (the index version moves)', async () => {
    const { HybridIndex } = await import('../hybrid');
    const h = new HybridIndex(2);
    const doc = (id: string, status: 'active' | 'archived') => ({ id, text: id, tags: ['t'], importance: 0.5, createdAt: NOW, validFrom: NOW, validTo: null, status, vector: null });
    h.upsert(doc('a', 'active'));
    h.upsert(doc('b', 'active'));
    const t1 = memoryTable(h);
    expect(t1.ids).toEqual(['a', 'b']);
    h.upsert(doc('a', 'archived')); // a status change of a memory without a vector
    const t2 = memoryTable(h);
    expect(t2).not.toBe(t1);
    expect(t2.recallable(t2.rowOf.get('a')!, {})).toBe(false);
    h.setVector('b', Float32Array.of(1, 0));
    const t3 = memoryTable(h);
    expect(t3).not.toBe(t2);
    h.remove('b');
    expect(memoryTable(h).ids).toEqual(['a']);
  });
});
