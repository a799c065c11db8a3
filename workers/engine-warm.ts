// The engine's side of the engine snapshot (schema v12, issue 13; the store's side is
// workers/engine-store/engine.ts, the format src/core/engine-snapshot.ts): adopt a snapshot
// after the keyword stage (the E1 vectors into the hybrid index, the space index as packed, the
// entity graph filled from its E11 column in the background), re-attach the memories written since from their
// current features, and pack the warm engine into a new snapshot. Both the adoption and the save
// run in steps between which the worker answers queries (`Pause`).

import { adoptVectorsOf, ENGINE_FORMAT, ENGINE_PART_BYTES, packEngineInSteps, unpackSpaces, type EngineSnapshot } from '../src/core/engine-snapshot';
import { checksumAdd, checksumEnd, checksumStart, cutAtArrays, invalid } from '../src/core/snapshot-pack';
import { deserializeFeatures, type SerializedFeatures } from '../src/core/spaces';
import type { MemoryId } from '../src/core/types';
import type { EngineStoreSource } from '../src/protocol/engine';
import type { EngineCore } from './engine-core';
import { EntityGraph } from './entity-graph';
import type { SpaceIndex } from '../src/core/pipeline';

/** The engine snapshot's state in a running engine (workers/engine-api.ts). */
export interface BuiltState {
  source: EngineStoreSource;
  /** The log seq the engine's features cover. */
  base: number;
  /** Memories written since (Infinity: write one once warm). */
  changes: number;
  want: { producers: EngineStoreSource['producers']; dim: number };
  /** Ids written through this engine since the last save began: it holds what the page wrote (not re-read). */
  told: Set<MemoryId>;
}

/** At most this many memories written since an engine snapshot are re-attached at a start; more = every block attached. */
export const maxEngineChanges = (size: number): number => Math.max(2000, Math.floor(size / 20));

/** Lets queued messages (queries) in between steps of a start or a save; throws ABORTED when a newer load began meanwhile. */
export type Pause = () => Promise<void>;
const noPause: Pause = () => Promise.resolve();

/** A stream's checksum, part by part (32 MiB each), pausing between parts. */
async function checksumInSteps(parts: readonly Uint8Array[], pause: Pause): Promise<number> {
  const st = checksumStart();
  for (const p of parts) {
    checksumAdd(st, p);
    await pause();
  }
  return checksumEnd(st);
}

/** True when a snapshot's rows are cut at array boundaries as this code writes them (false: rows of the first snapshots, rewritten once warm). */
export const rowsCutAtArrays = (s: EngineSnapshot): boolean => cutAtArrays(s.vectors, ENGINE_PART_BYTES) && cutAtArrays(s.spaces, ENGINE_PART_BYTES);

/**
 * Why the snapshot cannot be adopted (format, checksums), or null: engineSnapshotProblem in steps
 * (~450 MB at 100k). `computed`: the streams' checksums as the read computed them row by row
 * (readEngineStart), compared with the head's instead of reading every byte again.
 */
export async function snapshotProblemInSteps(s: EngineSnapshot, pause: Pause = noPause, computed?: { vectors: number; spaces: number }): Promise<string | null> {
  if (s.format !== ENGINE_FORMAT) return `format ${s.format}, this code reads ${ENGINE_FORMAT}`;
  if ((computed?.vectors ?? (await checksumInSteps(s.vectors.bytes, pause))) !== s.checksums.vectors) return 'the vectors do not match their checksum';
  if ((computed?.spaces ?? (await checksumInSteps(s.spaces.bytes, pause))) !== s.checksums.spaces) return 'the spaces do not match their checksum';
  return null;
}

/**
 * Replaces `core`'s vectors, space index and entity graph by the snapshot's (its words stay), in
 * steps (the checksums part by part, the space index, the vectors), pausing between them: the
 * engine is changed only by the last step. Memories the snapshot holds that the engine does not
 * (deleted since) are left out. Throws SNAPSHOT_INVALID, with the engine's vectors gone (the
 * caller attaches every block then), or ABORTED from `pause`.
 */
export async function adoptBuilt(core: EngineCore, snapshot: EngineSnapshot, pause: Pause = noPause, computed?: { vectors: number; spaces: number }): Promise<number> {
  const problem = await snapshotProblemInSteps(snapshot, pause, computed);
  if (problem) throw invalid(problem);
  const spaces = unpackSpaces(snapshot, (id) => core.hybrid.vectorOf(id));
  await pause();
  const hybrid = core.hybrid;
  adoptVectorsOf(hybrid, snapshot);
  for (const id of spaces.ids()) if (!hybrid.has(id)) spaces.remove(id);
  core.adoptBuilt({ spaces, entities: lazyEntities(() => spaces, () => core.built.entities) });
  return spaces.size;
}

/** A background fill step's budget (ms): queries wait at most about this long behind one. */
const FILL_STEP_MS = 8;

/**
 * The entity graph, filled from the space index's E11 column (graphology's edges were a third of
 * the adoption at 100k, and the whole build 1-3 s on the first one-hop query): in the background, in
 * steps of FILL_STEP_MS between which queries run, and whatever is left at once by the first read
 * (only the one-hop expansion and deep search's communities read it). Writes meanwhile apply to it
 * (entity-graph.ts). The fill stops when the engine holds another graph (a new load).
 */
export function lazyEntities(spaces: () => SpaceIndex, current?: () => EntityGraph, schedule: (step: () => void) => void = (f) => void setTimeout(f, 0)): EntityGraph {
  const graph = EntityGraph.deferred({ ids: () => spaces().ids(), has: (id) => spaces().has(id), entitiesOf: (id) => spaces().entitiesOf(id) });
  const step = () => {
    if (current && current() !== graph) return;
    if (!graph.fillFor(FILL_STEP_MS)) schedule(step);
  };
  schedule(step);
  return graph;
}

/**
 * Memories written since the snapshot (or while it was adopted): their current stored features
 * replace every space the engine holds for them (none: no spaces, no vector). Memories the engine
 * does not hold are skipped (their write reaches it as an upsert). Returns how many changed.
 */
export function reattach(core: EngineCore, changed: Map<MemoryId, SerializedFeatures | undefined>): number {
  const hybrid = core.hybrid;
  const { spaces, entities } = core.built;
  let n = 0;
  for (const [id, features] of changed) {
    if (!hybrid.has(id)) {
      spaces.remove(id);
      entities.remove(id);
      continue;
    }
    const f = features ? deserializeFeatures(features) : {};
    hybrid.setVector(id, f.E1 ?? null);
    if (Object.keys(f).length > 0) {
      spaces.upsert(id, f);
      entities.setFromFeatures(id, f);
    } else {
      spaces.remove(id);
      entities.remove(id);
    }
    n++;
  }
  core.adoptBuilt(core.built); // what was derived from the old features (neighbours, communities) goes
  return n;
}

/**
 * The warm engine's vectors and space index packed into parts of a stored row's size (each array
 * copied once, in steps), then their checksums part by part, pausing between steps (at 100k the
 * whole save kept the worker busy ~14 s in one go). The caller holds the engine's writes until it
 * resolves (the arrays must not change while they are copied).
 */
export async function packBuilt(core: EngineCore, pause: Pause = noPause): Promise<EngineSnapshot> {
  const s = await packEngineInSteps(core.hybrid, core.built.spaces, ENGINE_PART_BYTES, pause);
  return { ...s, checksums: { vectors: await checksumInSteps(s.vectors.bytes, pause), spaces: await checksumInSteps(s.spaces.bytes, pause) } };
}
