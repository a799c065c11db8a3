// The keyword half of a plain search computed ahead (HybridIndex.prepareLexical): taken by the next
// search of the same text and gate, once, and never when the words or a gate changed in between.
import { describe, expect, it } from 'vitest';
import { HybridIndex, type IndexDoc } from './hybrid';
import { lexicalKey } from './lexical-ahead';
import { DEFAULT_HYBRID_CONFIG } from './hybrid-config';

const vec = (...xs: number[]) => Float32Array.from(xs);
const doc = (id: string, text: string, vector: Float32Array | null, extra: Partial<IndexDoc> = {}): IndexDoc => ({
  id, text, tags: [], importance: 0.5, createdAt: 0, validFrom: 0, validTo: null, status: 'active', vector, ...extra,
}); // prettier-ignore

function small(): HybridIndex {
  const ix = new HybridIndex(4, { lexicalWeight: 0.5, semanticWeight: 0.5 });
  ix.upsert(doc('a', 'walking the dog in the park', vec(1, 0, 0, 0)));
  ix.upsert(doc('b', 'painting a sunrise by the lake', vec(0, 1, 0, 0)));
  ix.upsert(doc('c', 'the dog chased a ball', vec(0.6, 0.8, 0, 0)));
  return ix;
}
const ids = (ix: HybridIndex, text: string, vector: Float32Array | null = null, o = {}) => ix.search({ text, vector }, { topK: 10, ...o }).map((h) => h.id);

describe('a search with its keyword candidates computed ahead', () => {
  it('gives exactly the answer of a search without, and takes the list once', () => {
    const plain = small().search({ text: 'dog park', vector: vec(0, 1, 0, 0) }, { topK: 10 });
    const ix = small();
    ix.prepareLexical('dog park', { topK: 10 });
    expect(ix.search({ text: 'dog park', vector: vec(0, 1, 0, 0) }, { topK: 10 })).toEqual(plain);
    expect(ix.ahead.taken).toBe(1);
    // the next search of the same text computes its own (nothing held any more)
    expect(ix.search({ text: 'dog park', vector: vec(0, 1, 0, 0) }, { topK: 10 })).toEqual(plain);
    expect(ix.ahead.taken).toBe(1);
  });

  it('is not taken when the words changed in between: a memory written after it is found', () => {
    const ix = small();
    ix.prepareLexical('sunrise', { topK: 10 });
    ix.upsert(doc('d', 'a sunrise over the sea', vec(0, 0, 1, 0)));
    // "sunrise" is in b and d; the list computed before d was written held b alone
    expect(ids(ix, 'sunrise').sort()).toEqual(['b', 'd']);
    expect(ix.ahead.taken).toBe(0);
    expect(ix.ahead.dropped).toBe(1);
  });

  it('is not taken after a removal or a change of status', () => {
    const ix = small();
    ix.prepareLexical('dog', { topK: 10 });
    ix.remove('c');
    expect(ids(ix, 'dog')).toEqual(['a']);
    ix.prepareLexical('dog', { topK: 10 });
    ix.refreshDoc(doc('a', 'walking the dog in the park', null, { status: 'archived' }));
    expect(ids(ix, 'dog')).toEqual([]); // archived: not recallable by default
    expect(ix.ahead.taken).toBe(0);
  });

  it('is taken only by the same text and gate', () => {
    const ix = small();
    ix.refreshDoc(doc('a', 'walking the dog in the park', null, { status: 'archived' }));
    ix.prepareLexical('dog', { topK: 10, includeArchived: true });
    expect(ids(ix, 'dog')).toEqual(['c']); // another gate: computed afresh, the archived a left out
    ix.prepareLexical('dog', { topK: 10 });
    expect(ids(ix, 'ball')).toEqual(['c']);
    expect(ix.ahead).toMatchObject({ taken: 0, dropped: 2 });
    ix.prepareLexical('dog', { topK: 10, includeArchived: true });
    expect(ids(ix, 'dog', null, { includeArchived: true }).sort()).toEqual(['a', 'c']);
    expect(ix.ahead.taken).toBe(1);
  });

  it('keys a list by text, gate and BM25 settings, not by topK', () => {
    const c = DEFAULT_HYBRID_CONFIG;
    expect(lexicalKey('dog', { topK: 5 }, c)).toBe(lexicalKey('dog', { topK: 50, includeArchived: false }, c));
    expect(lexicalKey('dog', { topK: 5 }, c)).not.toBe(lexicalKey('dog', { topK: 5, asOf: 0 }, c));
    expect(lexicalKey('dog', { topK: 5 }, c)).not.toBe(lexicalKey('dog', { topK: 5 }, { ...c, k1: 1.5 }));
    expect(lexicalKey('dog', { topK: 5 }, c)).not.toBe(lexicalKey('dog ', { topK: 5 }, c));
  });
});
