// The keyword index as a compact snapshot (issue 13): what a start needs to answer keyword
// queries without tokenising every memory. Packed typed arrays, stored in a few large rows by
// src/db/lexical-snapshot.ts:
//   - the BM25 index (`Bm25Index.pack`): vocabulary, postings (slot, term frequency), token counts,
//     the id of each slot;
//   - per slot the doc's fields the ranking and the status gate read (status, importance, times,
//     strength, tags, suggested tags, session, the memory an earlier version belongs to) and a hash
//     of its text; the text itself is not kept (the results' texts come from the memory rows, and
//     the engine fills every doc's text from them in the background, checking the hash).
// `format` and `analyzer` say which code wrote it: a snapshot of another format or another
// tokeniser (stemmer, stopwords) is not used. `checksum` covers every array: a damaged snapshot is
// refused (SNAPSHOT_INVALID) and rebuilt from the memories.

import { AppError } from './errors';
import type { PackedBm25 } from './bm25';
import type { IndexDoc } from './hybrid';
import { analyze } from './text';
import type { MemoryId, MemoryStatus } from './types';

/** Bumped when the layout below changes. */
export const LEXICAL_FORMAT = 1;

/** A doc as the snapshot holds it: the index doc without its text and vector, plus the session. */
export type LexicalDoc = Omit<IndexDoc, 'vector' | 'text'> & { sessionId?: string; textHash: number };
/** A doc unpacked from a snapshot: an index doc whose text is not read yet ('', `textHash` says what it will be). */
export type SnapshotDoc = IndexDoc & { sessionId?: string; textHash: number };

export interface PackedDocs {
  /** Per slot: 0 active, 1 quarantined, 2 archived; bit 4: has suggested tags; bit 5: has a session. */
  flags: Uint8Array;
  /** Per slot, NUMBERS_PER_DOC values (see DOC_NUMBERS); NaN = absent (validTo, deletedAt: null). */
  numbers: Float64Array;
  /** Every distinct tag, suggested tag, session id and superseding memory id. */
  strings: string[];
  /** Per slot: its tags, then its suggested tags, as string refs; `tagStart` / `sugStart`: n + 1 offsets. */
  tagStart: Uint32Array;
  sugStart: Uint32Array;
  refs: Uint32Array;
  /** Per slot: a string ref, or -1 (none). */
  session: Int32Array;
  superseded: Int32Array;
}

export interface LexicalSnapshot {
  format: number;
  analyzer: number;
  bm25: PackedBm25;
  docs: PackedDocs;
  checksum: number;
}

const DOC_NUMBERS = ['importance', 'createdAt', 'validFrom', 'validTo', 'lastAccessedAt', 'strength', 'textHash', 'deletedAt'] as const;
const NUMBERS_PER_DOC = DOC_NUMBERS.length;
const STATUS_OF: readonly MemoryStatus[] = ['active', 'quarantined', 'archived'];
const HAS_SUGGESTED = 16;
const HAS_SESSION = 32;

/** FNV-1a over UTF-16 code units (a text's identity, not a secret). */
export function textHash(text: string, h = 0x811c9dc5): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const PROBE = 'The runners were running quickly to their meetings; caring, cared, happiness, generalizations, 2024-05-01 café naïve';
/** The tokeniser's fingerprint: its output on a probe text (stemming, stopwords, folding). */
export function analyzerFingerprint(): number {
  return textHash(analyze(PROBE).join('\u0001'), LEXICAL_FORMAT);
}

function hashArray(h: number, a: ArrayLike<number>): number {
  for (let i = 0; i < a.length; i++) h = Math.imul(h ^ (a[i] | 0), 0x01000193);
  return Math.imul(h ^ a.length, 0x01000193) >>> 0;
}

function hashStrings(h: number, a: readonly string[]): number {
  for (const s of a) h = textHash('\u0000', textHash(s, h));
  return Math.imul(h ^ a.length, 0x01000193) >>> 0;
}

/** The checksum over every part (the numbers by their bytes, as two words each). */
export function checksumOf(s: Omit<LexicalSnapshot, 'checksum'>): number {
  const { bm25: b, docs: d } = s;
  let h = textHash(`${s.format}:${s.analyzer}`);
  h = hashStrings(h, b.terms);
  h = hashStrings(h, b.ids);
  for (const a of [b.termStart, b.docs, b.tfs, b.lengths, d.flags, d.tagStart, d.sugStart, d.refs, d.session, d.superseded]) h = hashArray(h, a);
  h = hashArray(h, new Int32Array(d.numbers.buffer, d.numbers.byteOffset, d.numbers.length * 2));
  return hashStrings(h, d.strings);
}

/** The snapshot of `bm25` (packed) and its docs, in the same slot order. */
export function packSnapshot(bm25: PackedBm25, docs: readonly LexicalDoc[]): LexicalSnapshot {
  const n = docs.length;
  const strings: string[] = [];
  const refOf = new Map<string, number>();
  const ref = (s: string) => refOf.get(s) ?? (refOf.set(s, strings.push(s) - 1), strings.length - 1);
  const flags = new Uint8Array(n);
  const numbers = new Float64Array(n * NUMBERS_PER_DOC);
  const tagStart = new Uint32Array(n + 1);
  const sugStart = new Uint32Array(n + 1);
  const refs: number[] = [];
  const session = new Int32Array(n).fill(-1);
  const superseded = new Int32Array(n).fill(-1);
  docs.forEach((d, i) => {
    if (d.id !== bm25.ids[i]) throw new AppError('SNAPSHOT_INVALID', undefined, 'docs out of slot order');
    flags[i] = STATUS_OF.indexOf(d.status) | (d.suggestedTags ? HAS_SUGGESTED : 0) | (d.sessionId !== undefined ? HAS_SESSION : 0);
    DOC_NUMBERS.forEach((k, j) => (numbers[i * NUMBERS_PER_DOC + j] = d[k] ?? NaN));
    tagStart[i] = refs.length;
    for (const t of d.tags) refs.push(ref(t));
    sugStart[i] = refs.length;
    for (const t of d.suggestedTags ?? []) refs.push(ref(t));
    if (d.sessionId !== undefined) session[i] = ref(d.sessionId);
    if (d.supersededBy !== undefined) superseded[i] = ref(d.supersededBy);
  });
  tagStart[n] = sugStart[n] = refs.length;
  const body = { format: LEXICAL_FORMAT, analyzer: analyzerFingerprint(), bm25, docs: { flags, numbers, strings, tagStart, sugStart, refs: Uint32Array.from(refs), session, superseded } };
  return { ...body, checksum: checksumOf(body) };
}

/** Why a snapshot cannot be used as it is (null: it can), before anything is unpacked. */
export function snapshotProblem(s: LexicalSnapshot | undefined): string | null {
  if (!s) return 'missing';
  if (s.format !== LEXICAL_FORMAT) return `format ${s.format}, this code reads ${LEXICAL_FORMAT}`;
  if (s.analyzer !== analyzerFingerprint()) return 'written by another tokeniser';
  try {
    if (checksumOf(s) !== s.checksum) return 'damaged (checksum)';
  } catch {
    return 'damaged (unreadable parts)';
  }
  return null;
}

/**
 * The docs of a snapshot that `snapshotProblem` accepted, read from its columns: `check` refuses
 * (SNAPSHOT_INVALID) arrays that do not fit together or a doc the index would refuse (the
 * checksum cannot vouch for a snapshot written by faulty code), in one pass over the typed arrays,
 * creating no doc; `at(slot)` then makes one slot's doc. A start adopts these columns
 * (`HybridIndex.adoptWordsLazy`) and makes a doc only when it is first read: creating 100k doc
 * objects (and the maps holding them) was most of a start from the snapshot.
 */
export class SnapshotDocs {
  readonly ids: readonly MemoryId[];
  private readonly d: PackedDocs;

  constructor(s: LexicalSnapshot) {
    this.ids = s.bm25.ids;
    this.d = s.docs;
  }

  get size(): number {
    return this.ids.length;
  }

  /** Throws SNAPSHOT_INVALID unless every slot's doc can be made and is one the index accepts. */
  check(): this {
    const { d } = this;
    const n = this.ids.length;
    const bad = (why: string) => new AppError('SNAPSHOT_INVALID', undefined, `keyword index docs: ${why}`);
    if (d.flags.length !== n || d.numbers.length !== n * NUMBERS_PER_DOC || d.tagStart.length !== n + 1 || d.sugStart.length !== n + 1 || d.session.length !== n || d.superseded.length !== n) throw bad('array sizes');
    // one pass over typed arrays held in locals (this runs once per start, mostly before the
    // engine's code is optimised: property reads per element cost there)
    const strings = d.strings.length;
    const { refs, flags, tagStart, sugStart, session, superseded, numbers: nums } = d;
    const ids = this.ids;
    const nRefs = refs.length;
    for (let r = 0; r < nRefs; r++) if (!(refs[r] < strings)) throw bad('a string ref out of range');
    for (let i = 0; i < n; i++) {
      const f = flags[i];
      if ((f & 15) >= STATUS_OF.length) throw bad('a status');
      if (!(tagStart[i] <= sugStart[i] && sugStart[i] <= tagStart[i + 1] && tagStart[i + 1] <= nRefs)) throw bad('tag offsets');
      if (f & HAS_SESSION && !(session[i] >= 0 && session[i] < strings)) throw bad('a string ref out of range');
      if (superseded[i] >= strings) throw bad('a string ref out of range');
      const at = i * NUMBERS_PER_DOC;
      const importance = nums[at];
      const validTo = nums[at + 3];
      // what HybridIndex.upsert refuses: an importance outside [0, 1], validity bounds that are not times
      if (!(importance >= 0 && importance <= 1) || !Number.isFinite(nums[at + 2]) || !(validTo !== validTo || Number.isFinite(validTo))) throw bad('a field the index refuses');
      const id = ids[i];
      if (typeof id !== 'string' || id.length === 0) throw bad('a missing id');
    }
    if (d.tagStart[n] !== d.sugStart[n] || d.tagStart[n] > d.refs.length) throw bad('tag offsets');
    return this;
  }

  /** Slot `i`'s doc (after `check`): an index doc whose text is not read yet ('', `textHash` says what it will be). */
  at(i: number): SnapshotDoc {
    const { d } = this;
    const nums = d.numbers;
    const f = d.flags[i];
    const at = i * NUMBERS_PER_DOC;
    const validTo = nums[at + 3];
    const deletedAt = nums[at + 7];
    const list = (from: number, to: number): string[] => {
      const out: string[] = [];
      for (let r = from; r < to; r++) out.push(d.strings[d.refs[r]]);
      return out;
    };
    const doc: SnapshotDoc = {
      id: this.ids[i],
      text: '',
      vector: null,
      status: STATUS_OF[f & 15],
      importance: nums[at],
      createdAt: nums[at + 1],
      validFrom: nums[at + 2],
      validTo: Number.isNaN(validTo) ? null : validTo,
      textHash: nums[at + 6],
      deletedAt: Number.isNaN(deletedAt) ? null : deletedAt,
      tags: list(d.tagStart[i], d.sugStart[i]),
    };
    if (f & HAS_SUGGESTED) doc.suggestedTags = list(d.sugStart[i], d.tagStart[i + 1]);
    if (f & HAS_SESSION) doc.sessionId = d.strings[d.session[i]];
    if (d.superseded[i] >= 0) doc.supersededBy = d.strings[d.superseded[i]];
    if (!Number.isNaN(nums[at + 4])) doc.lastAccessedAt = nums[at + 4];
    if (!Number.isNaN(nums[at + 5])) doc.strength = nums[at + 5];
    return doc;
  }

  /** Slot `i`'s creation time and session ('' = none), without making its doc (the engine's per-memory meta). */
  meta(i: number): { createdAt: number; sessionId: string } {
    const d = this.d;
    return { createdAt: d.numbers[i * NUMBERS_PER_DOC + 1], sessionId: d.flags[i] & HAS_SESSION ? d.strings[d.session[i]] : '' };
  }
}

/** Every doc of a snapshot, in slot order (checked first: see `SnapshotDocs`). */
export function unpackDocs(s: LexicalSnapshot): SnapshotDoc[] {
  const docs = new SnapshotDocs(s).check();
  const out: SnapshotDoc[] = [];
  for (let i = 0; i < docs.size; i++) out.push(docs.at(i));
  return out;
}
