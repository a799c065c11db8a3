// Reserved slots (merge.ts, docs/research/quality.md "Sixth pass"): the primary's first `keep` stay,
// the next `slots` places go to the reader's best from outside the primary's top K, the primary's
// rank keep + 1.. fill the rest; every place keeps the primary's score profile.
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import type { MemoryId } from '../types';
import { deepSearch, DEEP_SEARCH_DEFAULTS, mergeDeep, resolveDeepSearch, type PoolDoc, type Reader, type ReaderScore } from '.';

const primary = [
  { id: 'p1', score: 2.0 },
  { id: 'p2', score: 1.6 },
  { id: 'p3', score: 1.2 },
  { id: 'p4', score: 0.8 },
];
const read: ReaderScore[] = [
  { id: 'p2', score: 0.95, reasons: ['p2 reason'] },
  { id: 'd1', score: 0.9, reasons: ['d1 reason'] },
  { id: 'd2', score: 0.5, reasons: [] },
  { id: 'd3', score: 0, reasons: [] },
  { id: 'p4', score: 0.2, reasons: [] },
];

describe('merge with reserved slots', () => {
  it('keeps the primary top `keep`, then the reader\'s best from outside the top K, then the primary', () => {
    const out = mergeDeep(primary, read, { weight: 0.5, topK: 4, reserve: { keep: 2, slots: 1 } });
    // p2 is the reader's best but inside the primary's top 4, so d1 (0.9) takes the one slot; p4 drops out
    expect(out.map((h) => [h.id, h.score, h.source])).toEqual([
      ['p1', 1, 'primary'],
      ['p2', 0.8, 'primary'],
      ['d1', 0.6, 'deep'],
      ['p3', 0.4, 'primary'],
    ]);
    expect(out[2].readerScore).toBe(0.9);
    expect(out[2].reasons).toEqual(['d1 reason']);
    expect(out[1].readerScore).toBe(0.95);
  });

  it('takes only candidates the reader scored above 0; the primary fills unused slots', () => {
    // slots 3 after p1: d1 0.9, d2 0.5 (d3 scored 0 is not taken), then p2, p3
    expect(mergeDeep(primary, read, { weight: 0.5, topK: 4, reserve: { keep: 1, slots: 3 } }).map((h) => h.id)).toEqual(['p1', 'd1', 'd2', 'p2']);
  });

  it('a primary result below the top K read by the reader counts as outside', () => {
    const deeper = [...primary, { id: 'p5', score: 0.4 }];
    const out = mergeDeep(deeper, [{ id: 'p5', score: 0.7, reasons: [] }, { id: 'd2', score: 0.5, reasons: [] }], { weight: 0.5, topK: 4, reserve: { keep: 3, slots: 1 } });
    expect(out.map((h) => [h.id, h.source])).toEqual([
      ['p1', 'primary'],
      ['p2', 'primary'],
      ['p3', 'primary'],
      ['p5', 'deep'],
    ]);
  });

  it('keep + slots beyond topK: the slots are clipped to what is left', () => {
    expect(mergeDeep(primary, read, { weight: 0.5, topK: 4, reserve: { keep: 3, slots: 5 } }).map((h) => h.id)).toEqual(['p1', 'p2', 'p3', 'd1']);
  });

  it('slots 0 is the weighted blend', () => {
    expect(mergeDeep(primary, read, { weight: 0.5, topK: 4, reserve: { keep: 2, slots: 0 } })).toEqual(mergeDeep(primary, read, { weight: 0.5, topK: 4 }));
  });

  it('a relevant constraint still surfaces, in the lowest non-constraint place', () => {
    const isConstraint = (id: MemoryId) => id === 'd2';
    // reserved: p1, p2, d1, p3; d2 (0.5 >= 0.3) takes p3's place and its score 0.4
    const out = mergeDeep(primary, read, { weight: 0.5, topK: 4, reserve: { keep: 2, slots: 1 }, isConstraint });
    expect(out.map((h) => [h.id, h.score, h.source])).toEqual([
      ['p1', 1, 'primary'],
      ['p2', 0.8, 'primary'],
      ['d1', 0.6, 'deep'],
      ['d2', 0.4, 'constraint'],
    ]);
  });

  it('the options: reserveSlots and keepTop validated; deepSearch merges with them', async () => {
    expect(() => resolveDeepSearch({ reserveSlots: -1 })).toThrow(AppError);
    expect(() => resolveDeepSearch({ keepTop: 1.5 })).toThrow('Recall option "deepSearch.keepTop" must be a whole number from 0 to 100; got 1.5.');
    const docs: PoolDoc[] = ['p1', 'p2', 'p3', 'p4', 'd1', 'd2'].map((id, i) => ({ id, sessionId: 's', createdAt: i, status: 'active', deletedAt: null, validFrom: i, validTo: null }));
    const reader: Reader = { kind: 'offline', read: (_q, pool) => Promise.resolve(pool.map((c) => ({ id: c.id, score: c.id === 'd2' ? 0.8 : 0.1, reasons: [] }))) };
    const out = await deepSearch({
      query: { text: 'q', features: {} },
      primary,
      topK: 4,
      options: { ...DEEP_SEARCH_DEFAULTS, mode: 'active', threshold: 1, reserveSlots: 1, keepTop: 1 },
      source: { docs },
      scope: {},
      candidateOf: (id) => ({ id, text: id, createdAt: 0 }),
      reader,
      timers: { setTimeout: (f: () => void, ms: number) => setTimeout(f, ms), clearTimeout: (h: never) => clearTimeout(h) },
    });
    // the pool: p1..p4 and the turns ±2 of the seeds (d1, d2); d2 is the reader's best outside the top 4
    expect(out.report.status).toBe('merged');
    expect(out.results.map((h) => h.id)).toEqual(['p1', 'd2', 'p2', 'p3']);
  });
});
