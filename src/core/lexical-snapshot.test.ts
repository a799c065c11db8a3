// The keyword index's snapshot: a packed index answers exactly as the index it was packed from,
// and as an index built afresh from the same memories, also after adds, edits and deletes on top
// of it; a damaged or foreign snapshot is refused.
import { describe, expect, it } from 'vitest';
import { AppError } from './errors';
import { HybridIndex, type IndexDoc } from './hybrid';
import {
  analyzerFingerprint,
  checksumOf,
  LEXICAL_FORMAT,
  packSnapshot,
  snapshotProblem,
  textHash,
  unpackDocs,
  type LexicalSnapshot,
} from './lexical-snapshot';

/** The SNAPSHOT_INVALID detail `fn` throws (fails the test if it throws anything else, or nothing). */
function detailOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe('SNAPSHOT_INVALID');
    return (e as AppError).detail ?? '';
  }
  throw new Error('did not throw');
}

const WORDS = 'apple orchard river stone garden music piano violin tea coffee mountain walk dog cat bird train ticket meeting project budget report letter winter summer autumn spring harbour ferry bread cheese'.split(' ');

/** A seeded corpus: Zipf-ish word choice (xorshift), some tags, a few earlier versions and states. */
function corpus(n: number, seed = 7): IndexDoc[] {
  let x = seed;
  const rnd = () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), (x >>> 0) / 2 ** 32);
  const word = () => WORDS[Math.floor(WORDS.length * rnd() ** 2)];
  return Array.from({ length: n }, (_, i) => {
    const len = 3 + Math.floor(rnd() * 12);
    const d: IndexDoc = {
      id: `m${String(i).padStart(5, '0')}`,
      text: Array.from({ length: len }, word).join(' ') + (i % 7 === 0 ? ' Running quickly, caring!' : ''),
      tags: i % 5 === 0 ? [word(), 'kept'] : [],
      importance: Math.round(rnd() * 100) / 100,
      createdAt: 1000 + i,
      validFrom: 1000 + i,
      validTo: i % 11 === 0 ? 5000 + i : null,
      status: i % 13 === 0 ? 'archived' : i % 17 === 0 ? 'quarantined' : 'active',
      vector: null,
    };
    if (i % 9 === 0) d.suggestedTags = [word()];
    if (i % 19 === 0 && i > 0) d.supersededBy = `m${String(i - 1).padStart(5, '0')}`;
    if (i % 4 === 0) d.lastAccessedAt = 9000 + i;
    if (i % 6 === 0) d.strength = 1.5;
    return d;
  });
}

function build(docs: IndexDoc[]): HybridIndex {
  const ix = new HybridIndex(4);
  for (const d of docs) ix.upsert(d);
  return ix;
}

function snapshotOf(ix: HybridIndex): LexicalSnapshot {
  const { bm25, docs } = ix.packWords();
  return packSnapshot(bm25, docs.map((d) => ({ ...d, sessionId: `s${d.createdAt % 3}`, textHash: textHash(d.text) })));
}

/** A fresh index from a snapshot (texts empty, as the engine has them before the memory rows). */
function fromSnapshot(s: LexicalSnapshot): HybridIndex {
  const ix = new HybridIndex(4);
  ix.adoptWords(s.bm25, unpackDocs(s).map((d) => ({ ...d, text: '', vector: null })));
  return ix;
}

const QUERIES = ['apple orchard', 'dog', 'running care', 'piano violin tea', 'kept', 'winter ferry bread', 'nothing-matches-this', 'report budget project meeting', 'cheese'];
const OPTS = [{ topK: 10 }, { topK: 50, includeArchived: true, includeQuarantined: true }, { topK: 20, asOf: 4000 }];

function answers(ix: HybridIndex) {
  return QUERIES.flatMap((q) => OPTS.map((o) => ix.search({ text: q, vector: null }, o).map((h) => [h.id, h.score, h.why.matchedTerms.join(','), h.why.coverage])));
}

describe('the keyword snapshot', () => {
  it('answers every query exactly as the index it was packed from', () => {
    const docs = corpus(600);
    const ix = build(docs);
    const s = snapshotOf(ix);
    expect(snapshotProblem(s)).toBeNull();
    const back = fromSnapshot(s);
    expect(answers(back)).toEqual(answers(ix));
    expect(answers(ix).flat().length).toBeGreaterThan(100); // the queries do find things
    // the docs' fields come back whole (text aside)
    const d = back.peek('m00038')!;
    expect(d).toMatchObject({ supersededBy: 'm00037', importance: docs[38].importance, tags: docs[38].tags, status: docs[38].status });
    expect(back.peek('m00011')!.validTo).toBe(5011);
    expect(back.peek('m00001')!.validTo).toBeNull();
    expect(back.peek('m00001')!.lastAccessedAt).toBeUndefined();
  });

  it('after adds, edits and deletes on top of a loaded snapshot, equals an index built afresh', () => {
    const docs = corpus(400, 11);
    const ix = build(docs);
    ix.remove('m00003'); // a dead slot before packing: compacted away
    const back = fromSnapshot(snapshotOf(ix));
    const final = new Map(docs.filter((d) => d.id !== 'm00003').map((d) => [d.id, d]));
    const edits: IndexDoc[] = [
      { ...docs[10], text: 'a brand new text about harbour ferries' },
      { ...docs[20], tags: ['violin'] },
      { ...docs[30], status: 'archived' },
      { ...corpus(401, 11)[400], id: 'new-1', text: 'new memory: orchard apple pie' },
    ];
    for (const d of edits) {
      back.upsert(d);
      final.set(d.id, d);
    }
    for (const id of ['m00005', 'm00100', 'm00399']) {
      back.remove(id);
      final.delete(id);
    }
    // an edit whose words did not change (refreshDoc: no tokenising)
    back.refreshDoc({ ...docs[50], importance: 0.99 });
    final.set(docs[50].id, { ...docs[50], importance: 0.99 });
    expect(answers(back)).toEqual(answers(build([...final.values()])));
    // and packing the result again gives the same answers once more
    expect(answers(fromSnapshot(snapshotOf(back)))).toEqual(answers(back));
  });

  it('refuses a damaged, foreign or inconsistent snapshot', () => {
    const s = snapshotOf(build(corpus(50)));
    expect(snapshotProblem(undefined)).toBe('missing');
    expect(snapshotProblem({ ...s, format: LEXICAL_FORMAT + 1 })).toMatch(/format/);
    expect(snapshotProblem({ ...s, analyzer: analyzerFingerprint() ^ 1 })).toMatch(/tokeniser/);
    const flipped = { ...s, bm25: { ...s.bm25, tfs: s.bm25.tfs.slice() } };
    flipped.bm25.tfs[3] += 1;
    expect(snapshotProblem(flipped)).toMatch(/checksum/);
    // damage the checksum cannot see (it was recomputed): the arrays themselves are checked
    flipped.checksum = checksumOf(flipped);
    expect(snapshotProblem(flipped)).toBeNull();
    expect(detailOf(() => fromSnapshot(flipped))).toMatch(/document length/);
    const outOfRange = { ...s, bm25: { ...s.bm25, docs: s.bm25.docs.slice() } };
    outOfRange.bm25.docs[0] = 9999;
    expect(detailOf(() => fromSnapshot(outOfRange))).toMatch(/out of order or range/);
    const shortDocs = { ...s, docs: { ...s.docs, flags: s.docs.flags.slice(1) } };
    expect(detailOf(() => unpackDocs(shortDocs))).toMatch(/array sizes/);
    const badRef = { ...s, docs: { ...s.docs, session: s.docs.session.map(() => 10_000) } };
    expect(detailOf(() => unpackDocs(badRef))).toMatch(/string ref/);
  });

  it('the text hash tells texts apart and is stable', () => {
    expect(textHash('')).toBe(0x811c9dc5);
    expect(textHash('a')).toBe(0xe40c292c); // FNV-1a 32 of "a", the published test vector
    expect(textHash('apple')).not.toBe(textHash('apples'));
  });
});
