// The hybrid index: BM25 over text + tags, and a dense cosine scan over unit vectors, fused
// into one ranking (weighted min-max or RRF). Both candidate lists are exposed before fusion
// so later retrieval modes (spaces, lateral, associative) can reuse them.
//
// Vectors live in a DenseStore (src/core/vectors: slot-major int8 codes + unit f32 rows; delete is
// a swap-remove), so the dense scan is an int8 pass with an exact f32 rescoring of its certified
// short list: the same candidates and scores as a full f32 scan (above AnnIndex's threshold, once
// built, its IVF lists are the candidates: approximate, recall@10 calibrated). Visibility (status, tombstone,
// validity interval) is mirrored into typed arrays per slot so the scan never touches a Map.
// The docs live in a DocTable (hybrid-docs.ts): after a start from the keyword snapshot they are
// read from its columns when first needed (`adoptWordsLazy`), with the same lookups and order.

import { AppError } from './errors';
export { isShownHit } from './shown';
import type { MatchExplanation, MemoryId, MemoryStatus, ScoredHit } from './types';
import { Bm25Index, type PackedBm25, type QueryTermStat } from './bm25';
import { DEFAULT_HYBRID_CONFIG, resolveHybridConfig, type HybridConfig } from './hybrid-config';
export { DEFAULT_HYBRID_CONFIG, resolveHybridConfig, type HybridConfig } from './hybrid-config';
import { fuseRRF, fuseWeighted, idfCoverage, type FusionInput } from './fusion';
import { isRecallable, statusAllowed, type StatusGate } from './status';
import { AnnIndex, DenseStore } from './vectors';
import { dot, isFiniteVector, normalize } from './vector';
import { DocTable, type LazyDocSource } from './hybrid-docs';
import { LexicalAhead } from './lexical-ahead';
export type { LazyDocSource } from './hybrid-docs';

export interface IndexDoc {
  id: MemoryId;
  text: string;
  tags: string[];
  importance: number;
  createdAt: number;
  validFrom: number;
  validTo: number | null;
  status: MemoryStatus;
  vector: Float32Array | null; // unit-norm; null = not embedded yet
  /** Derived tags (the engine passes them; lateral overlap and SYSTEMATIZER grouping count them). */
  suggestedTags?: string[];
  /** Tombstone time (optional extension): a doc with deletedAt set is never returned. */
  deletedAt?: number | null;
  /** Set on an earlier version of a memory: the memory that replaced it (it ranks below it). */
  supersededBy?: MemoryId;
  /** Last open / reinforcement / citation (decay-aware ranking); absent = createdAt. */
  lastAccessedAt?: number;
  /** >= 1, stretches the decay's time constant; absent = 1. */
  strength?: number;
}

export interface HybridQuery {
  text: string;
  vector: Float32Array | null;
}

export interface HybridSearchOptions {
  topK: number;
  includeQuarantined?: boolean;
  includeArchived?: boolean;
  /** Only memories valid at this instant (validFrom <= asOf < validTo), in both candidate lists. */
  asOf?: number | null;
  config?: Partial<HybridConfig>;
}

export interface LexicalCandidate {
  id: MemoryId;
  score: number;
  terms: string[];
  /** Sum of the idf of the query terms this memory holds. */
  matchedIdf: number;
}
export interface DenseCandidate {
  id: MemoryId;
  score: number;
}

const STATUS_CODE: Record<MemoryStatus, number> = { active: 0, quarantined: 1, archived: 2 };
const STATUS_OF_CODE: readonly MemoryStatus[] = ['active', 'quarantined', 'archived'];

function lexicalText(doc: IndexDoc): string {
  return doc.tags.length > 0 ? `${doc.text}\n${doc.tags.join(' ')}` : doc.text;
}

export class HybridIndex {
  readonly dim: number;
  private readonly config: HybridConfig;
  private bm25: Bm25Index;
  /** The stored docs (after a start from the snapshot: made as they are read, hybrid-docs.ts). */
  private readonly docs = new DocTable((id) => this.bm25.slotOf(id));
  // Dense rows (slot = the store's slot; the typed rows below mirror its swap-removes).
  private readonly dense: DenseStore;
  /** E1's approximate first stage: answers only above its threshold once built (else the exact scan). */
  readonly ann: AnnIndex;
  private capacity: number;
  private rowStatus: Uint8Array;
  private rowDeleted: Uint8Array;
  private rowFrom: Float64Array;
  private rowTo: Float64Array;
  version = 0; // bumped by every upsert, setVector, refreshDoc and remove (in removeRow): what was derived from the docs is stale
  readonly ahead = new LexicalAhead(); // a search's keyword list computed ahead (prepareLexical), told of every change of words or gates
  /** `encoder`: the id of the model the vectors come from (the dense store refuses another's). */
  constructor(dim: number, config: Partial<HybridConfig> = {}, encoder = 'unspecified') {
    if (!Number.isInteger(dim) || dim < 1) throw new AppError('INVALID_CONFIG', `Vector dimension must be a whole number >= 1 (got ${dim}).`);
    this.dim = dim;
    this.config = resolveHybridConfig(DEFAULT_HYBRID_CONFIG, config);
    this.bm25 = new Bm25Index({ k1: this.config.k1, b: this.config.b });
    this.capacity = 64;
    this.dense = new DenseStore({ dim, encoder });
    this.ann = new AnnIndex(this.dense);
    this.rowStatus = new Uint8Array(this.capacity);
    this.rowDeleted = new Uint8Array(this.capacity);
    this.rowFrom = new Float64Array(this.capacity);
    this.rowTo = new Float64Array(this.capacity);
  }

  get size(): number {
    return this.docs.size(this.bm25.size);
  }

  has(id: MemoryId): boolean {
    return this.docs.has(id);
  }

  /** The stored doc; its `vector` is a view of the (unit-normalised) stored row. */
  doc(id: MemoryId): IndexDoc | undefined {
    const d = this.docs.get(id);
    return d && { ...d, tags: [...d.tags], vector: this.vectorOf(id) ?? null };
  }

  /**
   * The stored doc itself, not a copy (its `vector` is null: the vector lives in the matrix).
   * For the hot read paths (the status gate, the pools, the lateral pass): read it, never change it.
   */
  peek(id: MemoryId): Readonly<IndexDoc> | undefined {
    return this.docs.get(id);
  }

  /** Calls `fn` with every stored doc and its id (the docs themselves, as `peek`: read only; no pair allocated per doc). */
  forEachDoc(fn: (doc: Readonly<IndexDoc>, id: MemoryId) => void): void {
    this.docs.forEach(fn);
  }

  /** The status gate (status, tombstone, asOf) for one id, without copying its doc. */
  recallable(id: MemoryId, gate: StatusGate): boolean {
    return isRecallable(this.docs.get(id), gate);
  }

  ids(): MemoryId[] {
    return this.docs.ids();
  }

  /** The stored (unit-normalised) vector of `id`: a view into the index. Do not mutate it, and copy it if you keep it past the next upsert / remove (rows move). */
  vectorOf(id: MemoryId): Float32Array | undefined {
    return this.dense.vectorOf(id);
  }

  /** The dense vectors (neighbour walks, lateral distances read it; do not change it). */
  get vectors(): DenseStore {
    return this.dense;
  }

  /** Room for `n` embedded documents (a load that knows its size: no doubling slack). */
  reserve(n: number): void {
    this.dense.reserve(n);
    if (n > this.capacity) this.ensureCapacity(n, true);
  }

  /** Add or replace a document; invalid input throws an AppError and leaves the index unchanged. */
  upsert(doc: IndexDoc): void {
    this.validate(doc);
    this.ahead.stale();
    // Stored without its vector: the vector lives only in the dense store.
    const stored: IndexDoc = { ...doc, tags: [...doc.tags], vector: null };
    this.docs.willMove(doc.id); // its words get a new slot
    this.bm25.upsert(doc.id, lexicalText(doc));
    this.putRow(doc, doc.vector);
    this.docs.set(stored);
  }

  /** The words' index packed (a lexical snapshot, src/core/lexical-snapshot.ts) and the stored docs in its slot order (read only). */
  packWords(): { bm25: PackedBm25; docs: Readonly<IndexDoc>[] } {
    this.docs.settle();
    const bm25 = this.bm25.pack();
    return { bm25: { ...bm25, ids: [...bm25.ids] }, docs: bm25.ids.map((id) => this.docs.get(id)!) };
  }

  /**
   * A start from a lexical snapshot: `packed` (its ids = the docs', in order) replaces the words' index and
   * `docs` the stored docs (taken as they are, not copied: the caller gives them up), with no
   * tokenising; the vectors come later (`setVector`). Throws (SNAPSHOT_INVALID, or upsert's codes
   * for a bad doc), changing nothing, on arrays that do not form an index or ids that differ.
   */
  adoptWords(packed: PackedBm25, docs: IndexDoc[]): void {
    const bm25 = Bm25Index.unpack(packed, { k1: this.config.k1, b: this.config.b });
    for (const d of docs) this.validate(d);
    if (bm25.size !== docs.length || docs.some((d, i) => d.id !== packed.ids[i])) throw new AppError('SNAPSHOT_INVALID', undefined, 'the docs are not the indexed ones, in slot order');
    this.clearAll(bm25);
    this.docs.adopt(docs.map((d) => (d.vector === null ? d : { ...d, vector: null })));
  }

  /**
   * `adoptWords` with the docs read from columns (checked by the caller: `SnapshotDocs.check`),
   * each made on its first read, none at the adoption; a full pass (`forEachDoc`, `ids`) or a
   * compaction of the words makes the rest. The same answers as `adoptWords`, sooner: making 100k
   * doc objects was most of a start from the snapshot.
   */
  adoptWordsLazy(packed: PackedBm25, source: LazyDocSource): void {
    const bm25 = Bm25Index.unpack(packed, { k1: this.config.k1, b: this.config.b });
    if (bm25.size !== source.ids.length || source.ids.some((id, i) => id !== packed.ids[i])) throw new AppError('SNAPSHOT_INVALID', undefined, 'the docs are not the indexed ones, in slot order');
    this.clearAll(bm25);
    this.docs.adoptLazy(source);
  }

  private clearAll(bm25: Bm25Index): void {
    this.ahead.stale();
    for (const id of this.ids()) this.removeRow(id);
    this.bm25 = bm25;
    bm25.beforeCompact = () => this.docs.settle();
  }

  /**
   * A start from an engine snapshot: `fill` fills the emptied dense store with packed rows
   * (store-pack.ts); rows of memories the index does not hold are dropped. When `fill` throws,
   * the index is left without vectors.
   */
  adoptVectors(fill: (store: DenseStore) => void): void {
    for (const id of this.dense.idList()) this.removeRow(id);
    fill(this.dense);
    this.ensureCapacity(this.dense.size, true);
    for (const id of this.dense.idList()) if (!this.docs.has(id)) this.removeRow(id);
    for (let s = 0; s < this.dense.size; s++) this.writeRowMeta(s, this.docs.get(this.dense.idAt(s))!);
    this.version++;
  }

  /** Replaces a doc whose words the index already holds (the same text and tags): no tokenising. */
  refreshDoc(doc: IndexDoc): void {
    this.validate(doc);
    if (!this.docs.has(doc.id)) return this.upsert(doc);
    this.ahead.stale();
    this.docs.set({ ...doc, tags: [...doc.tags], vector: null });
    this.version++; // what was derived from the docs (the memory table) is stale
    const row = this.dense.slotOf(doc.id);
    if (row !== undefined) this.writeRowMeta(row, doc); // the vector stays where it is
  }

  /** A document's vector alone (null: none), its words untouched: a staged start attaches stored vectors after the words. */
  setVector(id: MemoryId, vector: Float32Array | null): void {
    const doc = this.docs.get(id);
    if (doc && vector) this.validate({ ...doc, vector });
    if (doc) this.putRow(doc, vector);
  }

  private putRow(doc: IndexDoc, vector: Float32Array | null): void {
    this.removeRow(doc.id);
    if (!vector) return;
    const row = this.dense.set(doc.id, vector);
    this.ensureCapacity(row + 1);
    this.writeRowMeta(row, doc);
  }

  remove(id: MemoryId): void {
    if (!this.docs.delete(id)) return;
    this.ahead.stale();
    this.bm25.remove(id);
    this.removeRow(id);
  }

  /** BM25's view of a query: its unique analysed terms with df and idf (unknown terms: df 0). */
  queryTerms(text: string): QueryTermStat[] {
    return this.bm25.queryTerms(text);
  }

  candidates(q: HybridQuery, opts: HybridSearchOptions): { lexical: LexicalCandidate[]; dense: DenseCandidate[] } {
    checkTopK(opts.topK);
    return this.candidatesWith(q, opts, resolveHybridConfig(this.config, opts.config));
  }

  /** The keyword candidates of `text` now, for the next `search` of it (./lexical-ahead.ts): it overlaps the query's embedding. */
  prepareLexical(text: string, opts: HybridSearchOptions): void {
    const config = resolveHybridConfig(this.config, opts.config);
    this.ahead.put(text, opts, config, this.lexicalOf(text, opts, config));
  }

  private lexicalOf(text: string, opts: HybridSearchOptions, config: HybridConfig): LexicalCandidate[] {
    // the one gate (status, tombstone, asOf); the dense scan reads the same from its typed rows
    return text.trim() ? this.bm25.search(text, { topK: config.candidateK, params: { k1: config.k1, b: config.b }, accept: (id) => isRecallable(this.docs.get(id), opts) }) : [];
  }

  private candidatesWith(q: HybridQuery, opts: HybridSearchOptions, config: HybridConfig, ahead = false): { lexical: LexicalCandidate[]; dense: DenseCandidate[] } {
    const lexical = (ahead ? this.ahead.take(q.text, opts, config) : null) ?? this.lexicalOf(q.text, opts, config);
    return { lexical, dense: this.denseScan(q.vector, config.candidateK, opts) };
  }

  search(q: HybridQuery, opts: HybridSearchOptions): ScoredHit[] {
    checkTopK(opts.topK);
    const config = resolveHybridConfig(this.config, opts.config);
    if (opts.topK === 0) return [];
    const { lexical, dense } = this.candidatesWith(q, opts, config, true);
    const weights = [config.lexicalWeight, config.semanticWeight];
    const limit = opts.topK;
    const queryIdf = lexical.length > 0 ? this.bm25.queryTerms(q.text).reduce((a, t) => a + t.idf, 0) : 0;
    let fused;
    if (config.fusion === 'rrf') fused = fuseRRF([lexical, dense], { k: config.rrfK, weights, limit });
    else if (config.lexicalScore === 'coverage') {
      const covered: FusionInput[] = lexical.map((h) => ({ id: h.id, score: idfCoverage(h.matchedIdf, queryIdf, config.coveragePower) }));
      fused = fuseWeighted([covered, dense], weights, { limit, normalise: ['none', 'minmax'] });
    } else fused = fuseWeighted([lexical, dense], weights, { limit });
    const lexById = new Map(lexical.map((h) => [h.id, h]));
    const denseById = new Map(dense.map((h) => [h.id, h.score]));
    const qUnit = q.vector ? normalize(q.vector) : null;
    return fused.map((f): ScoredHit => {
      const lex = lexById.get(f.id);
      let cos = denseById.get(f.id);
      if (cos === undefined) {
        const v = qUnit ? this.vectorOf(f.id) : undefined;
        cos = v && qUnit ? dot(qUnit, v) : 0;
      }
      const why: MatchExplanation = {
        lexical: f.contributions[0],
        semantic: f.contributions[1],
        bm25: lex?.score ?? 0,
        cosine: cos,
        matchedTerms: lex?.terms ?? [],
        coverage: lex ? idfCoverage(lex.matchedIdf, queryIdf) : 0,
      };
      return { id: f.id, score: f.score, mode: 'standard', why };
    });
  }

  private denseScan(vector: Float32Array | null, k: number, opts: HybridSearchOptions): DenseCandidate[] {
    if (!vector || this.dense.size === 0) return [];
    if (vector.length !== this.dim) {
      throw new AppError('INVALID_EMBEDDING', `The query vector has ${vector.length} dimensions; the index expects ${this.dim}.`);
    }
    if (!isFiniteVector(vector)) throw new AppError('INVALID_EMBEDDING');
    const asOf = opts.asOf;
    // the status gate, looked up per slot by status code, applied before the top k
    const allowed = STATUS_OF_CODE.map((s) => statusAllowed(s, opts));
    const { rowDeleted, rowStatus, rowFrom, rowTo } = this;
    const accept = (r: number): boolean =>
      !rowDeleted[r] && allowed[rowStatus[r]] && (asOf == null || (rowFrom[r] <= asOf && asOf < rowTo[r])); // validAt (validTo null = Infinity)
    return (this.ann.search(vector, k, { accept }) ?? this.dense.search(vector, k, { accept })).map((h) => ({ id: h.id, score: h.score }));
  }

  private validate(doc: IndexDoc): void {
    if (typeof doc.id !== 'string' || doc.id.length === 0) throw new AppError('INVALID_OPTION', 'A memory id must be a non-empty string.');
    if (typeof doc.text !== 'string') throw new AppError('EMPTY_TEXT');
    if (!Number.isFinite(doc.importance) || doc.importance < 0 || doc.importance > 1) throw new AppError('INVALID_IMPORTANCE');
    if (!(doc.status in STATUS_CODE)) throw new AppError('INVALID_OPTION', `Unknown memory status: ${String(doc.status)}.`);
    if (!Number.isFinite(doc.validFrom) || (doc.validTo !== null && !Number.isFinite(doc.validTo))) {
      throw new AppError('INVALID_OPTION', 'validFrom / validTo must be epoch milliseconds (validTo may be null).');
    }
    if (doc.vector) {
      if (doc.vector.length !== this.dim) {
        throw new AppError('INVALID_EMBEDDING', `The vector has ${doc.vector.length} dimensions; the index expects ${this.dim}.`);
      }
      if (!isFiniteVector(doc.vector)) throw new AppError('INVALID_EMBEDDING');
    }
  }

  private writeRowMeta(row: number, doc: IndexDoc): void {
    this.rowStatus[row] = STATUS_CODE[doc.status];
    this.rowDeleted[row] = doc.deletedAt != null ? 1 : 0;
    this.rowFrom[row] = doc.validFrom;
    this.rowTo[row] = doc.validTo === null ? Infinity : doc.validTo;
  }

  /** Swap-remove the dense row of `id`, if any: the last row moves into the hole (the store says which). */
  private removeRow(id: MemoryId): void {
    this.version++;
    const moved = this.dense.remove(id);
    if (!moved) return;
    const { from, to } = moved;
    this.rowStatus[to] = this.rowStatus[from];
    this.rowDeleted[to] = this.rowDeleted[from];
    this.rowFrom[to] = this.rowFrom[from];
    this.rowTo[to] = this.rowTo[from];
  }

  private ensureCapacity(rows: number, exact = false): void {
    if (rows <= this.capacity) return;
    let cap = this.capacity;
    if (exact) cap = rows;
    else while (cap < rows) cap *= 2;
    const grow = <T extends Float64Array | Uint8Array>(a: T, n: number, make: (n: number) => T): T => {
      const b = make(n);
      b.set(a as never);
      return b;
    };
    this.rowStatus = grow(this.rowStatus, cap, (n) => new Uint8Array(n));
    this.rowDeleted = grow(this.rowDeleted, cap, (n) => new Uint8Array(n));
    this.rowFrom = grow(this.rowFrom, cap, (n) => new Float64Array(n));
    this.rowTo = grow(this.rowTo, cap, (n) => new Float64Array(n));
    this.capacity = cap;
  }
}

function checkTopK(topK: number): void {
  if (!Number.isInteger(topK) || topK < 0) throw new AppError('INVALID_OPTION', `topK must be a whole number >= 0 (got ${topK}).`);
}
