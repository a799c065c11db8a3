// The engine's neighbour matrix kept in step with its dense store (issue 13): a write used to drop
// the whole matrix, and the next lateral or hops query rebuilt it (the id list, the id -> row map
// and every memory's interned scope: ~0.1-0.7 s at 100k). This one follows the store as a
// DenseWatcher: an added vector appends its row, a removal applies the store's swap-remove to the
// ids, the map and the scopes, the rows themselves are the store's (a view taken when read). A
// new row's scope is resolved when the matrix is next read (the engine records a memory's session
// after its vector), so the scopes are always those `scopeOf` gives then. `version` counts the
// changes, and `changedSince` names the memories whose row changed (the memory table's row map
// follows them instead of looking every memory up again).

import type { MemoryId } from '../types';
import type { DenseStore, DenseWatcher } from '../vectors';
import { matrixFromStore, type NeighbourMatrix } from './matrix';

/** A row whose scope is not resolved yet. */
const UNRESOLVED = -2;
/** Row changes remembered for `changedSince` (a reader further behind looks every memory up). */
const LOG_MAX = 4096;

const live = new WeakMap<DenseStore, LiveMatrix>();

class LiveMatrix implements NeighbourMatrix, DenseWatcher {
  readonly dim: number;
  readonly ids: MemoryId[];
  readonly indexOf: Map<MemoryId, number>;
  readonly neighbours: NeighbourMatrix['neighbours'];
  version = 0;
  private scopes: Int32Array;
  private readonly interned = new Map<string, number>();
  private unresolved = 0;
  private removedId: MemoryId | null = null;
  private view: Float32Array | null = null;
  private readonly unwatch: () => void;
  /** Ids whose row changed, each with the version it changed at (kept up to LOG_MAX, then cleared: `changedSince` says null before `logFrom`). */
  private logIds: MemoryId[] = [];
  private logVersions: number[] = [];
  private logFrom = 0;

  constructor(
    private readonly store: DenseStore,
    private readonly scopeOf: (id: MemoryId) => string | undefined,
  ) {
    const m = matrixFromStore(store, scopeOf);
    this.dim = m.dim;
    this.ids = m.ids as MemoryId[];
    this.indexOf = m.indexOf as Map<MemoryId, number>;
    this.neighbours = m.neighbours;
    this.scopes = new Int32Array(Math.max(16, this.ids.length + (this.ids.length >> 3)));
    this.scopes.set(m.scope);
    // the interned numbers of the build, recovered for new rows (the same session, the same number)
    for (let r = 0; r < this.ids.length; r++) {
      const s = scopeOf(this.ids[r]);
      if (s !== undefined && !this.interned.has(s)) this.interned.set(s, m.scope[r]);
    }
    this.neighbours?.setScope(() => this.scope);
    this.unwatch = store.watch(this);
  }

  /** The rows (a view of the store's, taken again after a change; rowDot reads it per row). */
  get data(): Float32Array {
    if (this.view) return this.view;
    let f = this.store.floatRows();
    if (!f) {
      f = new Float32Array(this.ids.length * this.dim);
      for (let r = 0; r < this.ids.length; r++) f.set(this.store.vectorAt(r), r * this.dim);
    }
    return (this.view = f);
  }

  get scope(): Int32Array {
    if (this.unresolved > 0) {
      const n = this.ids.length;
      for (let r = 0; r < n; r++) {
        if (this.scopes[r] !== UNRESOLVED) continue;
        const s = this.scopeOf(this.ids[r]);
        let k = s === undefined ? -1 : this.interned.get(s);
        if (k === undefined) this.interned.set(s!, (k = this.interned.size));
        this.scopes[r] = k;
      }
      this.unresolved = 0;
    }
    return this.scopes.subarray(0, this.ids.length);
  }

  changedSince(version: number): readonly MemoryId[] | null {
    if (version < this.logFrom) return null;
    let k = this.logVersions.length;
    while (k > 0 && this.logVersions[k - 1] > version) k--;
    return this.logIds.slice(k);
  }

  private logged(id: MemoryId): void {
    if (this.logIds.length >= LOG_MAX) {
      this.logIds = [];
      this.logVersions = [];
      this.logFrom = this.version;
    }
    this.logIds.push(id);
    this.logVersions.push(this.version);
  }

  dispose(): void {
    this.unwatch();
  }

  removing(_slot: number, id: string): void {
    this.removedId = id;
  }

  written(slot: number, added: boolean): void {
    this.version++;
    this.view = null;
    if (!added) return; // the same id, its row rewritten in place (the view reads it)
    const id = this.store.idAt(slot);
    if (slot >= this.scopes.length) {
      const grown = new Int32Array(slot * 2 + 16);
      grown.set(this.scopes);
      this.scopes = grown;
    }
    this.ids[slot] = id;
    this.indexOf.set(id, slot);
    this.logged(id);
    this.scopes[slot] = UNRESOLVED;
    this.unresolved++;
  }

  removed(slot: number, moved: { from: number; to: number } | null): void {
    this.version++;
    this.view = null;
    if (this.removedId !== null) {
      this.indexOf.delete(this.removedId);
      this.logged(this.removedId);
    }
    this.removedId = null;
    if (moved) {
      const id = this.ids[moved.from];
      this.ids[slot] = id;
      this.indexOf.set(id, slot);
      this.logged(id);
      this.scopes[slot] = this.scopes[moved.from];
    }
    this.ids.pop();
  }
}

/**
 * The store's matrix kept in step with its writes (the engine's: it keeps it across captures,
 * edits and deletes). A call builds a new one and retires the store's previous one (the engine
 * asks again after a change the matrix does not follow: a load, a session change).
 */
export function liveMatrix(store: DenseStore, scopeOf: (id: MemoryId) => string | undefined = () => undefined): NeighbourMatrix {
  live.get(store)?.dispose();
  const m = new LiveMatrix(store, scopeOf);
  live.set(store, m);
  return m;
}
