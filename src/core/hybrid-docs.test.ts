// A start from the keyword snapshot adopts the docs' columns and makes a doc only when it is first
// read (hybrid-docs.ts): it must answer, look up and iterate exactly as the eager adoption (every
// doc made at once, held in one map), through every kind of write since, a compaction of the
// words included, while making no doc at the adoption and only the docs a query reads.
import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { HybridIndex, type IndexDoc } from './hybrid';
import { packSnapshot, SnapshotDocs, textHash, unpackDocs, type LexicalSnapshot } from './lexical-snapshot';
import type { MemoryId } from './types';

const WORDS = 'apple orchard river stone garden music piano violin tea coffee mountain walk dog cat bird train ticket meeting'.split(' ');

function corpus(n: number, seed = 5): IndexDoc[] {
  let x = seed;
  const rnd = () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), (x >>> 0) / 2 ** 32);
  const word = () => WORDS[Math.floor(WORDS.length * rnd() ** 2)];
  return Array.from({ length: n }, (_, i) => ({
    id: `m${String(i).padStart(4, '0')}`,
    text: Array.from({ length: 2 + Math.floor(rnd() * 8) }, word).join(' '),
    tags: i % 4 === 0 ? [word()] : [],
    importance: Math.round(rnd() * 100) / 100,
    createdAt: 1000 + i,
    validFrom: 1000 + i,
    validTo: i % 9 === 0 ? 3000 + i : null,
    status: i % 10 === 0 ? 'archived' : 'active',
    vector: null,
    ...(i % 3 === 0 && { suggestedTags: [word()] }),
  }));
}

function snapshotOf(docs: IndexDoc[]): LexicalSnapshot {
  const ix = new HybridIndex(4);
  for (const d of docs) ix.upsert(d);
  const packed = ix.packWords();
  return packSnapshot(packed.bm25, packed.docs.map((d) => ({ ...d, textHash: textHash(d.text) })));
}

/**
 * The eager adoption (every doc made, one map) and the lazy one, from copies of one snapshot (an
 * index adopts the arrays it is given, and a compaction rewrites them); `made` counts the lazy
 * one's docs made.
 */
function both(s: LexicalSnapshot) {
  const eager = new HybridIndex(4);
  eager.adoptWords(s.bm25, unpackDocs(s));
  const lazy = new HybridIndex(4);
  const own = structuredClone(s);
  const cols = new SnapshotDocs(own).check();
  const counter = { made: 0 };
  lazy.adoptWordsLazy(own.bm25, { ids: cols.ids, at: (i) => (counter.made++, cols.at(i)) });
  return { eager, lazy, counter };
}

const QUERIES = ['apple orchard', 'dog', 'piano violin tea', 'train ticket meeting', 'stone', 'nothing-here'];
const OPTS = [{ topK: 10 }, { topK: 40, includeArchived: true }, { topK: 15, asOf: 2000 }];
const answers = (ix: HybridIndex) => QUERIES.flatMap((q) => OPTS.map((o) => ix.search({ text: q, vector: null }, o).map((h) => [h.id, h.score, h.why.matchedTerms.join(',')])));
/** Lookups that do not make every doc (no iteration): size, has, peek of some ids. */
const lookups = (ix: HybridIndex, ids: MemoryId[]) => [ix.size, ...ids.map((id) => [ix.has(id), ix.peek(id) ?? null])];

describe('the lazily adopted docs', () => {
  it('make no doc at the adoption and only the docs a query reads', () => {
    const { eager, lazy, counter } = both(snapshotOf(corpus(400)));
    expect(counter.made).toBe(0);
    expect(lazy.size).toBe(400);
    const hits = lazy.search({ text: 'dog', vector: null }, { topK: 5 });
    expect(hits.map((h) => h.id)).toEqual(eager.search({ text: 'dog', vector: null }, { topK: 5 }).map((h) => h.id));
    // the status gate reads only the matching docs that could enter the top 5, not all 400
    expect(counter.made).toBeGreaterThanOrEqual(5);
    expect(counter.made).toBeLessThan(200);
    // a doc is made once: reading it again returns the same object
    expect(lazy.peek(hits[0].id)).toBe(lazy.peek(hits[0].id));
    const before = counter.made;
    lazy.peek(hits[0].id);
    expect(counter.made).toBe(before);
    // a full pass makes the rest, in slot order
    expect(lazy.ids()).toEqual(eager.ids());
    expect(counter.made).toBe(400);
  });

  it('answer, look up and iterate as the eager adoption through edits, removals, re-adds and new docs', () => {
    const docs = corpus(300);
    const { eager, lazy } = both(snapshotOf(docs));
    const extra = corpus(320, 9).slice(300).map((d, i) => ({ ...d, id: `new${i}` }));
    const steps: ((ix: HybridIndex) => void)[] = [
      (ix) => ix.upsert({ ...docs[10], text: 'harbour ferry apple' }), // an adopted doc's words change: its words move to a new slot
      (ix) => ix.upsert({ ...docs[10], text: 'harbour ferry apple again', importance: 0.2 }), // and again (found by `moved`)
      (ix) => ix.refreshDoc({ ...docs[20], importance: 0.9 }), // same words, other fields
      (ix) => ix.remove('m0030'),
      (ix) => ix.upsert({ ...docs[30], text: 'back again dog' }), // re-added after its removal: now last in order
      (ix) => ix.remove('m0010'), // removed after it moved
      (ix) => extra.forEach((d) => ix.upsert(d)), // new docs
      (ix) => ix.remove('new3'),
      (ix) => ix.upsert({ ...extra[5], status: 'archived' }),
      (ix) => ix.setVector('m0040', new Float32Array([1, 0, 0, 0])),
    ];
    const probe = ['m0000', 'm0010', 'm0020', 'm0030', 'm0040', 'm0299', 'new0', 'new3', 'new5', 'absent'];
    for (const step of steps) {
      step(eager);
      step(lazy);
      expect(lookups(lazy, probe)).toEqual(lookups(eager, probe));
    }
    expect(answers(lazy)).toEqual(answers(eager));
    expect(lazy.ids()).toEqual(eager.ids());
    expect(lazy.doc('m0040')?.vector).toEqual(eager.doc('m0040')?.vector);
    expect(answers(lazy)).toEqual(answers(eager));
  });

  it('settle before the words compact (their slots are renumbered), then go on as one map', () => {
    const docs = corpus(200);
    const { eager, lazy, counter } = both(snapshotOf(docs));
    lazy.upsert({ ...docs[1], text: 'moved before the compaction' });
    eager.upsert({ ...docs[1], text: 'moved before the compaction' });
    // more than half removed: the words index compacts (renumbering every slot)
    for (let i = 2; i < 140; i++) {
      lazy.remove(docs[i].id);
      eager.remove(docs[i].id);
    }
    // the compaction came with the 100th removal (101 dead slots > 99 live, and > 64): settled
    // then, every adopted doc still live made once (200 - 100 removed - docs[1], replaced, not made)
    expect(counter.made).toBe(99);
    lazy.upsert({ ...docs[150], text: 'after the compaction' });
    eager.upsert({ ...docs[150], text: 'after the compaction' });
    expect(lookups(lazy, ['m0000', 'm0001', 'm0002', 'm0150', 'm0199'])).toEqual(lookups(eager, ['m0000', 'm0001', 'm0002', 'm0150', 'm0199']));
    expect(answers(lazy)).toEqual(answers(eager));
    expect(lazy.ids()).toEqual(eager.ids());
  });

  it('the columns are checked before anything is adopted: a doc the index would refuse is refused', () => {
    const s = snapshotOf(corpus(20));
    const refused = (bad: LexicalSnapshot) => {
      try {
        new SnapshotDocs(bad).check();
      } catch (e) {
        expect((e as AppError).code).toBe('SNAPSHOT_INVALID');
        return (e as AppError).detail;
      }
      return 'accepted';
    };
    const numbers = s.docs.numbers.slice();
    numbers[8 * 3] = 1.5; // slot 3's importance (8 numbers per doc, importance first)
    expect(refused({ ...s, docs: { ...s.docs, numbers } })).toMatch(/refuses/);
    const flags = s.docs.flags.slice();
    flags[2] = 7; // no such status
    expect(refused({ ...s, docs: { ...s.docs, flags } })).toMatch(/status/);
    const tagStart = s.docs.tagStart.slice();
    tagStart[5] = tagStart[6] + 1; // offsets out of order
    expect(refused({ ...s, docs: { ...s.docs, tagStart } })).toMatch(/tag offsets/);
    expect(refused(s)).toBe('accepted');
  });
});
