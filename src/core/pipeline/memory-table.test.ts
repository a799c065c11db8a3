// The memory table's columns against the lookups they replace: the status gate per memory, and the
// associative walk's closed rows (gate, suppressed, shadowed earlier versions, rows it lacks).
import { describe, expect, it } from 'vitest';
import { buildNeighbourMatrix, FeedbackState, type RecallDoc } from '../recall';
import { isRecallable, type StatusGate } from '../status';
import { closeRows } from './associative';
import { MemoryTable, memoryTable } from './memory-table';
import { isShadowed } from './temporal';
import { resolveRecallOptions } from '../recall';
import { liveMatrix } from '../recall/live-matrix';
import { seededUniform } from '../features/hash';
import { DenseStore } from '../vectors';

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

  it('is brought up to date in place when the source changes, kept otherwise', () => {
    const docs = docsOf(9);
    const src = { version: 1, forEachDoc: (fn: (d: RecallDoc, id: string) => void) => docs.forEach(fn) };
    const t = memoryTable(src);
    expect(memoryTable(src)).toBe(t);
    docs.set('new', { tags: [], importance: 1, status: 'active', createdAt: NOW });
    src.version = 2;
    const u = memoryTable(src);
    expect(u).toBe(t); // one memory more: a row appended, no new table
    expect([u.version, u.rowOf.get('new'), u.size]).toEqual([2, 300, 301]);
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

/** A table as its live rows show it, in order: what every stage reads (the dead rows and the tag numbering are not). */
function view(t: MemoryTable) {
  const tagName = [...t.tagIndex.keys()];
  const rows: unknown[] = [];
  for (let r = 0; r < t.size; r++) {
    if (t.ids[r] === undefined || t.rowOf.get(t.ids[r]) !== r) {
      expect(gates.some((g) => t.recallable(r, g))).toBe(false); // a dead row: no gate lets it through
      continue;
    }
    const tags = Array.from(t.tagIds.subarray(t.tagStart[r], t.tagEnd[r]), (k) => tagName[k]);
    rows.push([t.ids[r], t.docs[r], t.importance[r], t.createdAt[r], tags, gates.map((g) => t.recallable(r, g)), [...t.superseded].includes(r)]);
  }
  return { rows, superseded: [...t.superseded].map((r) => t.ids[r]), memories: t.rowOf.size };
}

describe('the table kept up to date in place', () => {
  it('equals a fresh build after random adds, edits (status, tags, validity, versions) and deletes, re-adds included', () => {
    for (let seed = 1; seed <= 3; seed++) {
      const docs = docsOf(seed);
      let s = seed * 7919;
      const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
      const src = { version: 0, forEachDoc: (fn: (d: RecallDoc, id: string) => void) => docs.forEach(fn) };
      const t = new MemoryTable(0, src);
      let next = 0;
      let kept = 0;
      for (let step = 0; step < 40; step++) {
        const ids = [...docs.keys()];
        for (let k = 0; k < 1 + Math.floor(rand() * 8); k++) {
          const u = rand();
          const id = ids[Math.floor(rand() * ids.length)];
          if (u < 0.3) docs.set(`n${next++}`, { tags: rand() < 0.5 ? ['b', `x${next % 5}`] : [], importance: rand(), status: 'active', createdAt: NOW - Math.floor(rand() * 9) * DAY, ...(rand() < 0.2 ? { supersededBy: id } : {}) });
          else if (u < 0.6 && docs.has(id)) docs.set(id, { ...docs.get(id)!, tags: rand() < 0.5 ? ['a', 'c'] : [], status: rand() < 0.3 ? 'archived' : 'active', ...(rand() < 0.3 ? { validTo: NOW - 5 * DAY } : {}), suggestedTags: rand() < 0.5 ? ['s'] : undefined });
          else if (u < 0.85) docs.delete(id);
          else if (docs.has(id)) {
            const d = docs.get(id)!; // deleted and added again: it moves to the end of the source's order
            docs.delete(id);
            docs.set(id, { ...d, importance: rand() });
          }
        }
        if (rand() < 0.3) docs.delete([...docs.keys()].at(-1)!); // the newest gone: rows after the source's last
        src.version++;
        if (t.update(src)) kept++;
        else break; // a quarter dead: the caller builds afresh (tested below)
        expect(view(t)).toEqual(view(new MemoryTable(src.version, src)));
        for (const g of gates) {
          const live = [...docs.keys()].map((id) => t.recallable(t.rowOf.get(id)!, g));
          expect(live).toEqual([...docs.values()].map((d) => isRecallable(d, g)));
        }
      }
      expect(kept).toBeGreaterThan(5);
    }
  });

  it('a quarter of the rows dead: memoryTable builds a fresh table (no dead rows)', () => {
    const docs = docsOf(3);
    const src = { version: 1, forEachDoc: (fn: (d: RecallDoc, id: string) => void) => docs.forEach(fn) };
    const t = memoryTable(src);
    [...docs.keys()].slice(0, 50).forEach((id) => docs.delete(id));
    src.version = 2;
    expect(memoryTable(src)).toBe(t); // 50 dead of 300
    [...docs.keys()].slice(0, 30).forEach((id) => docs.delete(id));
    src.version = 3;
    const u = memoryTable(src); // 80 dead of 300
    expect(u).not.toBe(t);
    expect([u.size, u.rowOf.size]).toEqual([220, 220]);
    expect(view(u)).toEqual(view(new MemoryTable(3, src)));
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
    expect(t2.version).toBe(h.version);
    expect(t2.recallable(t2.rowOf.get('a')!, {})).toBe(false);
    h.setVector('b', Float32Array.of(1, 0));
    expect(memoryTable(h).version).toBe(h.version);
    h.remove('b');
    const t4 = memoryTable(h);
    expect([t4.rowOf.has('b'), t4.rowOf.get('a')]).toEqual([false, 0]);
    expect(view(t4)).toEqual(view(new MemoryTable(h.version, h)));
  });

  it('follows a refreshDoc (same words, another status or time): the version moves', async () => {
    const { HybridIndex } = await import('../hybrid');
    const h = new HybridIndex(2);
    const doc = (id: string, status: 'active' | 'archived', validTo: number | null = null) => ({ id, text: id, tags: ['t'], importance: 0.5, createdAt: NOW, validFrom: NOW, validTo, status, vector: null });
    h.upsert(doc('a', 'active'));
    h.upsert(doc('b', 'active'));
    h.setVector('a', Float32Array.of(1, 0));
    const t1 = memoryTable(h);
    expect(t1.recallable(t1.rowOf.get('a')!, {})).toBe(true);
    const before = h.version;
    h.refreshDoc(doc('a', 'archived')); // archived: the same text and tags, so no tokenising
    expect(h.version).toBeGreaterThan(before);
    const t2 = memoryTable(h);
    expect(t2.recallable(t2.rowOf.get('a')!, {})).toBe(false);
    h.refreshDoc(doc('b', 'active', NOW - 1)); // a memory without a vector, valid only up to before NOW
    const t3 = memoryTable(h);
    expect(view(t3)).toEqual(view(new MemoryTable(h.version, h)));
  });
});

describe("the rows' places in a live neighbour matrix, kept in step", () => {
  it('equal a fresh lookup of every memory after random captures, vector edits, deletes and re-adds (most queries between a few writes)', () => {
    for (const seed of [1, 2, 3]) {
      const rand = seededUniform(seed);
      const dim = 4;
      const store = new DenseStore({ dim, encoder: 'e', kernel: 'js' });
      const m = liveMatrix(store);
      const docs = new Map<string, RecallDoc>();
      const doc = (): RecallDoc => ({ tags: [], importance: rand(), status: 'active', createdAt: NOW });
      const vec = () => Float32Array.from({ length: dim }, () => rand() - 0.5);
      let next = 0;
      const capture = () => {
        const id = `m${next++}`;
        docs.set(id, doc());
        if (rand() < 0.85) store.set(id, vec()); // some memories have no vector
      };
      for (let i = 0; i < 120; i++) capture();
      store.set('ghost', vec()); // a vector whose memory the table does not hold
      const src = { version: 0, forEachDoc: (fn: (d: RecallDoc, id: string) => void) => docs.forEach(fn) };
      let looked = 0;
      for (let step = 0; step < 120; step++) {
        const writes = rand() < 0.1 ? 40 : 1 + Math.floor(rand() * 3); // now and then a batch (a full lookup)
        for (let w = 0; w < writes; w++) {
          const ids = [...docs.keys()];
          const id = ids[Math.floor(rand() * ids.length)];
          const u = rand();
          if (u < 0.35) capture();
          else if (u < 0.55) store.set(id, vec()); // a vector edited in place
          else if (u < 0.65) store.remove(id); // the vector gone, the memory kept
          else if (u < 0.85) {
            docs.delete(id); // a delete: its slot swap-removed (another memory's row moves)
            store.remove(id);
          } else {
            const d = docs.get(id)!;
            docs.delete(id);
            docs.set(id, { ...d }); // re-added: a new table row
            store.remove(id);
            store.set(id, vec());
          }
          src.version++;
        }
        const t = memoryTable(src);
        const rows = t.matrixRows(m);
        for (let r = 0; r < t.size; r++) {
          const live = t.rowOf.get(t.ids[r]) === r;
          expect(rows[r], `row ${r}`).toBe(live ? (m.indexOf.get(t.ids[r]) ?? -1) : -1);
          if (live) looked++;
        }
      }
      expect(looked).toBeGreaterThan(10_000);
    }
  });

  it('the live matrix names the memories whose row changed since a version, or null once it no longer knows', () => {
    const store = new DenseStore({ dim: 2, encoder: 'e', kernel: 'js' });
    for (const id of ['a', 'b', 'c']) store.set(id, Float32Array.of(1, 0));
    const m = liveMatrix(store);
    const v0 = m.version!;
    expect(m.changedSince!(v0)).toEqual([]);
    store.set('d', Float32Array.of(0, 1));
    store.set('b', Float32Array.of(0, 1)); // in place: no row moves
    const v1 = m.version!;
    store.remove('a'); // the last row (d) moves into a's slot
    expect(m.changedSince!(v0)).toEqual(['d', 'a', 'd']);
    expect(m.changedSince!(v1)).toEqual(['a', 'd']);
    for (let i = 0; i < 5000; i++) store.set(`x${i}`, Float32Array.of(1, 1));
    expect(m.changedSince!(v1)).toBeNull();
    const v2 = m.version!;
    store.remove('x4999');
    expect(m.changedSince!(v2)).toEqual(['x4999']);
  });
});
