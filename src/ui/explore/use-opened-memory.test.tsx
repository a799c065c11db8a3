// @vitest-environment jsdom
// Opening a memory in Explore: a result deeper search found is opened through the services (its
// access recorded, the scorer trained once: seed 003 F); any other result opens from the recall's
// copy without a call. Before issue 11's audit, opening a deep hit in Explore trained nothing.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { RecallView } from '../../services';
import type { Memory } from '../../core/types';

const opened: string[] = [];
vi.mock('../../services', () => ({
  services: () => ({
    openMemory: async (id: string) => {
      opened.push(id);
      return {};
    },
    getMemory: async () => ({}),
  }),
}));

const { useOpenedMemory, foundByDeepSearch } = await import('./use-opened-memory');

afterEach(() => {
  cleanup();
  opened.length = 0;
});

const why = { lexical: 0, semantic: 0, bm25: 0, cosine: 0, matchedTerms: [] };
const memory = (id: string) => ({ id, text: id, tags: [] }) as unknown as Memory;
const first = { memory: memory('a'), result: { id: 'a', score: 1, mode: 'standard', why } } as unknown as RecallView;
const reread = { memory: memory('b'), result: { id: 'b', score: 0.9, mode: 'standard', why, deep: { readerScore: 0.4, reasons: [], via: [], source: 'primary' } } } as unknown as RecallView;
const deepHit = {
  memory: memory('c'),
  result: { id: 'c', score: 0.5, mode: 'standard', why, deep: { readerScore: 0.7, reasons: [], via: [{ strategy: 'temporal', seed: 'a', detail: '1 turn after' }], source: 'deep' } },
} as unknown as RecallView;
const views = [first, reread, deepHit];

describe('useOpenedMemory and deeper search', () => {
  it('a deep hit (found through a pool way) is one; a first result, or one only read again, is not', () => {
    expect([first, reread, deepHit].map(foundByDeepSearch)).toEqual([false, false, true]);
  });

  it('opening a deep hit calls openMemory once, even when the results are redrawn; other results make no call', async () => {
    const { result, rerender } = renderHook(({ id, vs }) => useOpenedMemory(id, vs, () => {}), { initialProps: { id: 'a' as string | null, vs: views } });
    expect(result.current.memory?.id).toBe('a');
    rerender({ id: 'b', vs: views });
    rerender({ id: 'c', vs: views });
    await waitFor(() => expect(opened).toEqual(['c']));
    rerender({ id: 'c', vs: [...views] }); // the same opening, new results (a refinement): no second call
    rerender({ id: null, vs: views });
    rerender({ id: 'c', vs: views }); // opened again later: it counts again (the services train once per pair)
    await waitFor(() => expect(opened).toEqual(['c', 'c']));
    expect(result.current.memory?.id).toBe('c');
  });
});
