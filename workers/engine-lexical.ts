// The engine's side of the keyword index's snapshot (issue 13; the store's side is
// workers/engine-store/lexical.ts, the format src/core/lexical-snapshot.ts): adopt a snapshot
// into a fresh engine (no tokenising), apply the memories written since, fill the docs' texts from
// the memory rows later (checking each against the snapshot's hash), and pack the engine's words
// into a new snapshot.

import { AppError } from '../src/core/errors';
import type { IndexDoc } from '../src/core/hybrid';
import { packSnapshot, snapshotProblem, SnapshotDocs, textHash, type LexicalSnapshot, type SnapshotDoc } from '../src/core/lexical-snapshot';
import type { Memory, MemoryId } from '../src/core/types';
import { toIndexDoc, type EngineDoc, type EngineLoadOptions } from '../src/protocol/engine';
import type { EngineCore } from './engine-core';

/** At most this many memories written since a snapshot are applied at a start; more = rebuild. */
export const maxChangesAtStart = (size: number): number => Math.max(5000, Math.floor(size / 5));
/** This many memories applied at a start, or written since the last snapshot, make the engine write a new one. */
export const rewriteAfter = (size: number): number => Math.max(500, Math.floor(size / 50));

/**
 * Fills `core` (after `core.load([], opts)`) from a snapshot: its words and docs, texts empty
 * (each doc keeps its `textHash` until `fillTexts` gives it its text). Returns the size. Throws
 * SNAPSHOT_INVALID (the engine left empty) when the snapshot is unusable or damaged.
 */
export function adoptSnapshot(core: EngineCore, snapshot: LexicalSnapshot | undefined, opts: EngineLoadOptions): number {
  const problem = snapshotProblem(snapshot);
  if (problem) throw new AppError('SNAPSHOT_INVALID', undefined, problem);
  const docs = new SnapshotDocs(snapshot!).check();
  core.load([], opts);
  // the docs and their meta read from the snapshot's columns when first needed, not made here
  core.hybrid.adoptWordsLazy(snapshot!.bm25, docs);
  core.setMeta({ ids: docs.ids, at: (i) => docs.meta(i) });
  return docs.size;
}

/** The text hash of a doc adopted from a snapshot whose text is not read yet (undefined: it has its text). */
const pendingHash = (d: Readonly<IndexDoc> | undefined): number | undefined => (d as Partial<SnapshotDoc> | undefined)?.textHash;

/** The docs adopted from a snapshot that no memory row has filled yet. */
export function stillPending(core: EngineCore): MemoryId[] {
  const out: MemoryId[] = [];
  core.hybrid.forEachDoc((d, id) => void (pendingHash(d) !== undefined && out.push(id)));
  return out;
}

/**
 * The memories written since the snapshot (at a start) or since the last save: a live one whose
 * words the engine holds (the same text, or text hash, and tags) is refreshed without tokenising,
 * and skipped when nothing differs (the page's own upsert got there first); another live one is
 * indexed again; the rest are removed.
 */
export function applyChanged(core: EngineCore, changed: Map<string, Memory | undefined>): void {
  const gone: MemoryId[] = [];
  const refreshed: EngineDoc[] = [];
  for (const [id, m] of changed) {
    if (!m || m.deletedAt !== null) {
      if (core.hybrid.has(id)) gone.push(id);
      continue;
    }
    const d = toIndexDoc(m);
    const held = core.hybrid.peek(id);
    if (!held || !sameWords(held, d)) core.upsert(d);
    else if (!sameFields(held, d) || core.sessionOf(id) !== (d.sessionId ?? '')) {
      core.hybrid.refreshDoc({ ...d, vector: null });
      refreshed.push(d);
    }
  }
  if (gone.length) core.removeMany(gone);
  core.setMeta(refreshed);
}

function sameWords(held: Readonly<IndexDoc>, d: EngineDoc): boolean {
  const hash = pendingHash(held);
  return (hash === undefined ? held.text === d.text : hash === textHash(d.text)) && sameList(held.tags, d.tags);
}

/** Every field of the doc but its words (a pending doc differs: its text is still to be filled). */
function sameFields(held: Readonly<IndexDoc>, d: EngineDoc): boolean {
  return (
    pendingHash(held) === undefined &&
    held.status === d.status && held.importance === d.importance && held.createdAt === d.createdAt &&
    held.validFrom === d.validFrom && held.validTo === d.validTo && (held.deletedAt ?? null) === (d.deletedAt ?? null) &&
    held.supersededBy === d.supersededBy && held.lastAccessedAt === d.lastAccessedAt && held.strength === d.strength &&
    sameList(held.suggestedTags ?? [], d.suggestedTags ?? [])
  );
}

/**
 * Texts for docs adopted from the snapshot, from their live memory rows (the caller leaves out
 * the ids written through the engine meanwhile): a doc whose text hash and tags match is
 * refreshed (no tokenising); one that does not, or a memory the engine lacks (the snapshot and
 * the log both missed a write), is indexed again. Returns how many were repaired.
 */
export function fillTexts(core: EngineCore, docs: EngineDoc[]): number {
  let repaired = 0;
  const refreshed: EngineDoc[] = [];
  for (const d of docs) {
    const held = core.hybrid.peek(d.id);
    if (!held) {
      core.upsert(d); // a live memory neither the snapshot nor the log knew (written behind the log's back)
      repaired++;
      continue;
    }
    const hash = pendingHash(held);
    if (hash === undefined) continue; // written since the snapshot, or filled already: the engine has it
    if (hash === textHash(d.text) && sameList(held.tags, d.tags)) {
      core.hybrid.refreshDoc({ ...d, vector: null });
      refreshed.push(d);
    } else {
      core.upsert(d);
      repaired++;
    }
  }
  core.setMeta(refreshed);
  return repaired;
}

/** The engine's words as a snapshot (its docs' texts must all be filled). */
export function packWords(core: EngineCore): LexicalSnapshot {
  const { bm25, docs } = core.hybrid.packWords();
  return packSnapshot(
    bm25,
    docs.map((d) => ({ ...d, sessionId: core.sessionOf(d.id), textHash: pendingHash(d) ?? textHash(d.text) })),
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
