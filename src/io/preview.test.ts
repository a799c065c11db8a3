import { describe, expect, it } from 'vitest';
import type { VectorRecord } from './backup-schema';
import { dedupeKey } from './dedupe';
import { importPlainText } from './plain-text';
import { batches, planImport, reusableVectors } from './preview';

describe('planImport', () => {
  it('counts new items, repeats in the file, items already stored, skipped and notes', () => {
    const res = importPlainText('alpha\nbeta\nalpha\ngamma', { split: 'line', source: 'javascript:x' });
    res.errors.push({ severity: 'skipped', code: 'IMPORT_INVALID', message: 'x' });
    const stored = new Set([dedupeKey({ text: 'gamma' })]);
    const plan = planImport(res, stored);
    expect(plan.toWrite.map((i) => i.draft.text)).toEqual(['alpha', 'beta']);
    expect(plan.repeatedInFile.map((i) => i.where.line)).toEqual([3]);
    expect(plan.alreadyThere.map((i) => i.draft.text)).toEqual(['gamma']);
    expect(plan.counts).toEqual({ read: 4, toWrite: 2, alreadyThere: 1, repeatedInFile: 1, skipped: 1, notes: 4 });
    expect(plan.toWrite[0].key).toBe(dedupeKey({ text: 'alpha' }));
  });
  it('a re-run with the first run keys stored writes nothing', () => {
    const res = importPlainText('one\ntwo', { split: 'line', createdAt: 1_700_000_000_000 });
    const first = planImport(res, new Set());
    const again = planImport(importPlainText('one\ntwo', { split: 'line', createdAt: 1_700_000_000_000 }), new Set(first.toWrite.map((i) => i.key)));
    expect(again.counts.toWrite).toBe(0);
    expect(again.counts.alreadyThere).toBe(2);
  });
});

describe('reusableVectors', () => {
  const row = (space: VectorRecord['space'], model: string, dtype: VectorRecord['dtype'] = 'space'): VectorRecord => ({ memoryId: 'm', space, dim: 0, dtype, model, data: new ArrayBuffer(0) });
  it('keeps only vectors of the producer this app runs for their space', () => {
    const current = (s: string) => (s === 'E1' ? 'use-lite@1' : s === 'E2' ? 'lex@3' : undefined);
    const { reuse, recompute } = reusableVectors([row('E1', 'use-lite@1'), row('E1', 'other-encoder'), row('E2', 'lex@3'), row('E3', 'lex@3'), row('E1', 'use-lite@1', 'float32')], current);
    expect(reuse.map((r) => `${r.space}:${r.model}`)).toEqual(['E1:use-lite@1', 'E2:lex@3']);
    expect(recompute.map((r) => `${r.space}:${r.model}:${r.dtype}`)).toEqual(['E1:other-encoder:space', 'E3:lex@3:space', 'E1:use-lite@1:float32']);
  });
});

describe('batches', () => {
  it('cuts into whole batches, the last one shorter', () => {
    expect(batches([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(batches([], 3)).toEqual([]);
    expect(() => batches([1], 0)).toThrow('The batch size must be a whole number above 0 (got 0).');
  });
});
