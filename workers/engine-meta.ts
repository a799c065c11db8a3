// The engine's per-memory meta (creation time, session) by id (workers/engine-core.ts): a map
// whose filling can wait for its first use. A start from the keyword snapshot gives the meta of
// every adopted memory as the snapshot's columns; the first keyword answer needs none of it, and
// making 100k entries took a fifth of that start (issue 13).

export interface Meta {
  createdAt: number;
  sessionId: string;
}

/** A snapshot's meta as columns: `at(i)` is the meta of `ids[i]`. */
export interface MetaColumns {
  readonly ids: readonly string[];
  at(i: number): Meta;
}

export class LaterMap<K, V> {
  private m = new Map<K, V>();
  private pending: ((m: Map<K, V>) => void) | null = null;

  /** The map, once whatever is pending is in (in the order it was given: the entries and their order are those of filling it at once). */
  get map(): Map<K, V> {
    const fill = this.pending;
    this.pending = null;
    fill?.(this.m);
    return this.m;
  }

  reset(m: Map<K, V>): void {
    this.m = m;
    this.pending = null;
  }

  /** `fill` runs on the map's next use, after anything pending. */
  later(fill: (m: Map<K, V>) => void): void {
    const before = this.pending;
    this.pending = before ? (m) => (before(m), fill(m)) : fill;
  }
}
