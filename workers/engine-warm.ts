// The engine's side of the engine snapshot (schema v12, issue 13; the store's side is
// workers/engine-store/engine.ts, the format src/core/engine-snapshot.ts): adopt a snapshot
// after the keyword stage (the E1 vectors into the hybrid index, the space index as packed, the
// entity graph rebuilt from its E11 column), re-attach the memories written since from their
// current features, and pack the warm engine into a new snapshot.

import { adoptEngine, packEngine, type EngineSnapshot } from '../src/core/engine-snapshot';
import { deserializeFeatures, type SerializedFeatures } from '../src/core/spaces';
import type { MemoryId } from '../src/core/types';
import type { EngineCore } from './engine-core';
import { EntityGraph } from './entity-graph';

/** At most this many memories written since an engine snapshot are re-attached at a start; more = every block attached. */
export const maxEngineChanges = (size: number): number => Math.max(2000, Math.floor(size / 20));

/**
 * Replaces `core`'s vectors, space index and entity graph by the snapshot's (its words stay).
 * Memories the snapshot holds that the engine does not (deleted since) are left out. Throws
 * SNAPSHOT_INVALID, with the engine's vectors gone (the caller attaches every block then).
 */
export function adoptBuilt(core: EngineCore, snapshot: EngineSnapshot): number {
  const hybrid = core.hybrid;
  const spaces = adoptEngine(hybrid, snapshot, (id) => hybrid.vectorOf(id));
  const entities = new EntityGraph();
  for (const id of spaces.ids()) {
    if (!hybrid.has(id)) spaces.remove(id);
    else entities.setMemory(id, spaces.entitiesOf(id));
  }
  core.adoptBuilt({ spaces, entities });
  return spaces.size;
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

/** The warm engine's vectors and space index, packed (synchronous). */
export function packBuilt(core: EngineCore): EngineSnapshot {
  return packEngine(core.hybrid, core.built.spaces);
}
