// An incremental BM25 inverted index (Robertson & Zaragoza, "The Probabilistic Relevance
// Framework: BM25 and Beyond", 2009), with Lucene's always-positive idf:
//   idf(t)      = ln(1 + (N - df + 0.5) / (df + 0.5))
//   score(d, q) = sum over unique query terms t in d of
//                 idf(t) * tf * (k1 + 1) / (tf + k1 * (1 - b + b * |d| / avgdl))
//
// Layout: each term owns a postings list of two growable typed arrays (doc slot, term
// frequency). Removing a document marks its slot dead and fixes df / N / total length at once,
// so scores stay exact; dead postings are skipped while scoring and dropped by a compaction
// once dead slots outnumber live ones. Slots are never reused before compaction, so a stale
// posting can never be credited to a new document by mistake.

import { AppError } from './errors';
import type { MemoryId } from './types';
import { analyzeWithSurface, type AnalyzeOptions } from './text';
import { TopK } from './topk';

export { DEFAULT_BM25_PARAMS, validateBm25Params, type Bm25Hit, type Bm25Params, type Bm25SearchOptions, type PackedBm25, type QueryTermStat } from './bm25-types';
import { DEFAULT_BM25_PARAMS, validateBm25Params, type Bm25Hit, type Bm25Params, type Bm25SearchOptions, type PackedBm25, type QueryTermStat } from './bm25-types';

class Postings {
  docs: Int32Array;
  tfs: Uint32Array;
  len: number;
  df: number; // live documents only

  /** Empty (room for 4), or a snapshot's full lists, taken as they are. */
  constructor(docs?: Int32Array, tfs?: Uint32Array) {
    this.docs = docs ?? new Int32Array(4);
    this.tfs = tfs ?? new Uint32Array(4);
    this.len = this.df = docs ? docs.length : 0;
  }

  push(slot: number, tf: number): void {
    if (this.len === this.docs.length) {
      const docs = new Int32Array(this.len * 2);
      docs.set(this.docs);
      this.docs = docs;
      const tfs = new Uint32Array(this.len * 2);
      tfs.set(this.tfs);
      this.tfs = tfs;
    }
    this.docs[this.len] = slot;
    this.tfs[this.len] = tf;
    this.len++;
  }
}

export class Bm25Index {
  private params: Bm25Params;
  private readonly analyzeOpts: AnalyzeOptions;
  private readonly termIds = new Map<string, number>();
  private readonly postings: Postings[] = [];
  private readonly idToSlot = new Map<MemoryId, number>();
  private slotIds: (MemoryId | null)[] = [];
  private slotLen = new Float64Array(16);
  /** Sorted unique term ids per slot (for removal and matched-term lookup). */
  private slotTerms: Int32Array[] = [];
  /**
   * After `unpack`: the unpacked slots' sorted term ids in one array (`flat`, made from the packed
   * postings on the first `termsOf`, which views it; `start`: each slot's offset).
   */
  private packedTerms: { flat: Int32Array | null; start: Uint32Array; termStart: Uint32Array; docs: Int32Array } | null = null;
  private totalLen = 0;
  private deadSlots = 0;
  private scratch = new Float64Array(16);
  private touched = new Int32Array(16);

  constructor(params: Partial<Bm25Params> = {}, analyzeOpts: AnalyzeOptions = {}) {
    validateBm25Params(params);
    this.params = { ...DEFAULT_BM25_PARAMS, ...params };
    this.analyzeOpts = analyzeOpts;
  }

  get size(): number {
    return this.idToSlot.size;
  }

  get averageLength(): number {
    return this.size === 0 ? 0 : this.totalLen / this.size;
  }

  setParams(params: Partial<Bm25Params>): void {
    validateBm25Params(params);
    this.params = { ...this.params, ...params };
  }

  has(id: MemoryId): boolean {
    return this.idToSlot.has(id);
  }

  /** The slot of `id`'s words (they move when it is written again, and in a compaction). */
  slotOf(id: MemoryId): number | undefined {
    return this.idToSlot.get(id);
  }

  /** Called before a compaction renumbers the slots (the hybrid index settles what it keys by slot). */
  beforeCompact: (() => void) | null = null;

  /** Add or replace the document `id`. */
  upsert(id: MemoryId, text: string): void {
    if (this.idToSlot.has(id)) this.remove(id);
    const counts = new Map<number, number>();
    let length = 0;
    for (const { term } of analyzeWithSurface(text, this.analyzeOpts)) {
      let t = this.termIds.get(term);
      if (t === undefined) {
        t = this.postings.length;
        this.termIds.set(term, t);
        this.postings.push(new Postings());
      }
      counts.set(t, (counts.get(t) ?? 0) + 1);
      length++;
    }
    const slot = this.slotIds.length;
    this.slotIds.push(id);
    if (slot >= this.slotLen.length) {
      const grown = new Float64Array(this.slotLen.length * 2);
      grown.set(this.slotLen);
      this.slotLen = grown;
    }
    this.slotLen[slot] = length;
    const terms = Int32Array.from(counts.keys()).sort();
    this.slotTerms.push(terms);
    for (const t of terms) {
      const p = this.postings[t];
      p.push(slot, counts.get(t)!);
      p.df++;
    }
    this.totalLen += length;
    this.idToSlot.set(id, slot);
  }

  /** The live index as packed arrays (compacts first: no dead slot is written). */
  pack(): PackedBm25 {
    this.compact();
    const n = this.slotIds.length;
    const terms: string[] = [];
    const termStart: number[] = [0];
    let total = 0;
    for (const p of this.postings) total += p.df > 0 ? p.len : 0;
    const docs = new Int32Array(total);
    const tfs = new Uint32Array(total);
    let w = 0;
    for (const [term, t] of this.termIds) {
      const p = this.postings[t];
      if (p.df <= 0) continue;
      docs.set(p.docs.subarray(0, p.len), w);
      tfs.set(p.tfs.subarray(0, p.len), w);
      w += p.len;
      terms.push(term);
      termStart.push(w);
    }
    const lengths = new Uint32Array(n);
    for (let s = 0; s < n; s++) lengths[s] = this.slotLen[s];
    return { terms, termStart: Uint32Array.from(termStart), docs, tfs, lengths, ids: this.slotIds as MemoryId[] };
  }

  /**
   * The index of a packed snapshot, without tokenising anything. Refuses (SNAPSHOT_INVALID) arrays
   * that do not describe an index: offsets out of order or range, a slot out of range or repeated
   * in a list, a zero frequency, a length that is not its document's token count, repeated ids or
   * terms. A snapshot that passes is an index `pack` could have written.
   */
  static unpack(p: PackedBm25, params: Partial<Bm25Params> = {}, analyzeOpts: AnalyzeOptions = {}): Bm25Index {
    const bad = (why: string) => new AppError('SNAPSHOT_INVALID', undefined, `keyword index: ${why}`);
    const [n, T] = [p.ids.length, p.terms.length];
    if (p.termStart.length !== T + 1 || p.termStart[0] !== 0 || p.termStart[T] !== p.docs.length || p.tfs.length !== p.docs.length || p.lengths.length !== n) throw bad('array sizes');
    const index = new Bm25Index(params, analyzeOpts);
    const sums = new Float64Array(n);
    const perSlot = new Uint32Array(n + 1);
    // typed arrays in locals, no allocation per term beyond its views: this runs once per start,
    // mostly before the engine's code is optimised
    const { docs, tfs, termStart, terms } = p;
    for (let t = 0; t < T; t++) {
      const from = termStart[t];
      const to = termStart[t + 1];
      if (to <= from) throw bad('an empty or reversed postings list');
      let prev = -1;
      for (let r = from; r < to; r++) {
        const s = docs[r];
        const tf = tfs[r];
        if (!(s > prev && s < n) || tf === 0) throw bad('a posting out of order or range');
        prev = s;
        sums[s] += tf;
        perSlot[s + 1]++;
      }
      if (index.termIds.has(terms[t])) throw bad('a repeated term');
      index.termIds.set(terms[t], t);
      index.postings.push(new Postings(docs.subarray(from, to), tfs.subarray(from, to)));
    }
    // each slot's sorted term ids are made only when first needed (a remove, a compaction): a search
    // finds a hit's matched terms in the postings themselves
    for (let s = 0; s < n; s++) perSlot[s + 1] += perSlot[s];
    index.packedTerms = { flat: null, start: perSlot, termStart: p.termStart, docs: p.docs };
    index.slotLen = new Float64Array(Math.max(16, n));
    for (let s = 0; s < n; s++) {
      const id = p.ids[s];
      if (typeof id !== 'string' || id.length === 0 || index.idToSlot.has(id)) throw bad('a missing or repeated id');
      if (sums[s] !== p.lengths[s]) throw bad('a document length');
      index.idToSlot.set(id, s);
      index.slotLen[s] = p.lengths[s];
      index.totalLen += p.lengths[s];
    }
    index.slotTerms = new Array<Int32Array>(n); // holes: viewed on demand (termsOf), not 100k views at a start
    index.slotIds = [...p.ids];
    return index;
  }

  /** The sorted unique term ids of `slot`. */
  private termsOf(slot: number): Int32Array {
    const have = this.slotTerms[slot];
    if (have) return have;
    const p = this.packedTerms!;
    if (!p.flat) {
      // term order is ascending, so each slot's list comes out sorted
      const flat = new Int32Array(p.docs.length);
      const fill = p.start.slice(0, p.start.length - 1);
      for (let t = 0; t + 1 < p.termStart.length; t++) for (let r = p.termStart[t]; r < p.termStart[t + 1]; r++) flat[fill[p.docs[r]]++] = t;
      p.flat = flat;
    }
    return (this.slotTerms[slot] = p.flat.subarray(p.start[slot], p.start[slot + 1]));
  }

  /** Remove `id`; returns false when it was not indexed. */
  remove(id: MemoryId): boolean {
    const slot = this.idToSlot.get(id);
    if (slot === undefined) return false;
    this.idToSlot.delete(id);
    this.slotIds[slot] = null;
    this.totalLen -= this.slotLen[slot];
    for (const t of this.termsOf(slot)) this.postings[t].df--;
    this.slotTerms[slot] = EMPTY;
    this.deadSlots++;
    if (this.deadSlots > 64 && this.deadSlots > this.idToSlot.size) this.compact();
    return true;
  }

  /** Rebuild slots and postings without dead documents. */
  compact(): void {
    this.beforeCompact?.();
    const remap = new Int32Array(this.slotIds.length).fill(-1);
    const ids: (MemoryId | null)[] = [];
    const lens = new Float64Array(Math.max(16, this.idToSlot.size));
    const terms: Int32Array[] = [];
    for (let s = 0; s < this.slotIds.length; s++) {
      const id = this.slotIds[s];
      if (id === null) continue;
      remap[s] = ids.length;
      lens[ids.length] = this.slotLen[s];
      terms.push(this.termsOf(s));
      this.idToSlot.set(id, ids.length);
      ids.push(id);
    }
    for (const p of this.postings) {
      let w = 0;
      for (let r = 0; r < p.len; r++) {
        const ns = remap[p.docs[r]];
        if (ns < 0) continue;
        p.docs[w] = ns;
        p.tfs[w] = p.tfs[r];
        w++;
      }
      p.len = w;
    }
    this.slotIds = ids;
    this.slotLen = lens;
    this.slotTerms = terms;
    this.packedTerms = null;
    this.deadSlots = 0;
  }

  /**
   * The query's unique analysed terms (query order) with their document frequency and idf, the
   * terms no document holds included (df 0, idf = ln(1 + (N + 0.5) / 0.5), the rarest possible):
   * a query word the collection never uses is lexical evidence the best match cannot have.
   */
  queryTerms(query: string): QueryTermStat[] {
    const n = this.size;
    const out: QueryTermStat[] = [];
    const seen = new Set<string>();
    for (const { term, surface } of analyzeWithSurface(query, this.analyzeOpts)) {
      if (seen.has(term)) continue;
      seen.add(term);
      const t = this.termIds.get(term);
      const df = t === undefined ? 0 : Math.max(0, this.postings[t].df);
      out.push({ term, surface, df, idf: Math.log(1 + (n - df + 0.5) / (df + 0.5)) });
    }
    return out;
  }

  /** Rank documents for `query` by BM25, best first (ties: id ascending). Only documents sharing a term score. */
  search(query: string, opts: Bm25SearchOptions): Bm25Hit[] {
    if (opts.params) validateBm25Params(opts.params);
    const { k1, b } = { ...this.params, ...opts.params };
    const n = this.size;
    if (n === 0 || !(opts.topK > 0)) return [];
    const avgdl = this.totalLen / n || 1;

    // Unique query terms, each remembered with its first surface form for explanations.
    const qTerms: { id: number; surface: string; idf: number }[] = [];
    const seen = new Set<number>();
    for (const { term, surface } of analyzeWithSurface(query, this.analyzeOpts)) {
      const t = this.termIds.get(term);
      if (t === undefined || seen.has(t)) continue;
      seen.add(t);
      const df = this.postings[t].df;
      if (df <= 0) continue;
      qTerms.push({ id: t, surface, idf: Math.log(1 + (n - df + 0.5) / (df + 0.5)) });
    }
    if (qTerms.length === 0) return [];

    const slots = this.slotIds.length;
    if (this.scratch.length < slots) this.scratch = new Float64Array(Math.max(slots, this.scratch.length * 2));
    const acc = this.scratch;
    if (this.touched.length < slots) this.touched = new Int32Array(this.scratch.length);
    const touched = this.touched; // reused per query, as the accumulator
    let count = 0;
    const lenNorm = k1 * (1 - b);
    const lenScale = (k1 * b) / avgdl;
    for (const q of qTerms) {
      const p = this.postings[q.id];
      const docs = p.docs;
      const tfs = p.tfs;
      const w = q.idf * (k1 + 1);
      for (let r = 0; r < p.len; r++) {
        const s = docs[r];
        if (this.slotIds[s] === null) continue;
        const tf = tfs[r];
        if (acc[s] === 0) touched[count++] = s;
        acc[s] += (w * tf) / (tf + lenNorm + lenScale * this.slotLen[s]);
      }
    }

    const heap = new TopK<number>(opts.topK);
    for (let i = 0; i < count; i++) {
      const s = touched[i];
      const score = acc[s];
      acc[s] = 0; // reset scratch for the next query
      // below the k-th kept score nothing can enter (a tie still can, by id): skip the gate's lookup
      if (score < heap.threshold()) continue;
      const id = this.slotIds[s]!;
      if (opts.accept && !opts.accept(id)) continue;
      heap.push(id, score, s);
    }
    return heap.sorted().map(({ id, score, item: slot }) => ({ id, score, ...this.matched(slot, qTerms) }));
  }

  /** The query terms `slot` holds: found in each term's postings (slots ascending in every list), not in the slot's own term list. */
  private matched(slot: number, qTerms: { id: number; surface: string; idf: number }[]): { terms: string[]; matchedIdf: number } {
    const terms: string[] = [];
    let matchedIdf = 0;
    for (const q of qTerms) {
      const p = this.postings[q.id];
      if (!binarySearch(p.docs, p.len, slot)) continue;
      terms.push(q.surface);
      matchedIdf += q.idf;
    }
    return { terms, matchedIdf };
  }
}

const EMPTY = new Int32Array(0);

/** Whether `x` is among the first `len` values of the ascending `a`. */
function binarySearch(a: Int32Array, len: number, x: number): boolean {
  let lo = 0;
  let hi = len - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const v = a[mid];
    if (v === x) return true;
    if (v < x) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}
