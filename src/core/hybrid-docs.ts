// The hybrid index's stored docs (src/core/hybrid.ts), by id: a map, and after a start from the
// keyword snapshot (`adoptLazy`) the adopted docs read from the snapshot's columns, each made
// when it is first read (issue 13: making 100k doc objects and the map holding them was most of
// a start from the snapshot, before the first keyword answer). Either way the docs, their lookups
// and their iteration order are those of one map filled in slot order and written since.

import type { IndexDoc } from './hybrid';
import type { MemoryId } from './types';

/** Docs adopted in their words' slot order, made when first read. */
export interface LazyDocSource {
  readonly ids: readonly MemoryId[];
  /** Slot `i`'s doc (a new object each call; the table keeps the first it is given). */
  at(i: number): IndexDoc;
}

/**
 * The adopted docs until they are all made: slot `i` (its words' slot at the adoption) holds
 * `made[i]` (made on first read, or replaced by a write since) unless `gone[i]`. A doc whose
 * words moved to another slot (written since) is found by `moved`. Docs that were not adopted
 * (written since, or written again after a removal) live in the map, after these in iteration
 * order: the order one map would have kept.
 */
interface Lazy {
  source: LazyDocSource;
  made: (IndexDoc | undefined)[];
  gone: Uint8Array;
  moved: Map<MemoryId, number>;
}

export class DocTable {
  private docs = new Map<MemoryId, IndexDoc>();
  private lazy: Lazy | null = null;

  /** `slotOf`: where the words index holds an id's words now (an adopted doc untouched since is still in its adopted slot). */
  constructor(private readonly slotOf: (id: MemoryId) => number | undefined) {}

  /** How many docs (adopted or not): `wordsSize` is the words index's, which holds the same docs. */
  size(wordsSize: number): number {
    return this.lazy ? wordsSize : this.docs.size;
  }

  has(id: MemoryId): boolean {
    return this.docs.has(id) || this.lazySlot(id) !== undefined;
  }

  /** The stored doc of `id`, made from the adopted columns on its first read. */
  get(id: MemoryId): IndexDoc | undefined {
    const d = this.docs.get(id);
    if (d || !this.lazy) return d;
    const slot = this.lazySlot(id);
    return slot === undefined ? undefined : (this.lazy.made[slot] ??= this.lazy.source.at(slot));
  }

  /** Stores `doc` (in its place in iteration order when it is stored already, else last). */
  set(doc: IndexDoc): void {
    const slot = this.lazySlot(doc.id);
    if (slot !== undefined) this.lazy!.made[slot] = doc;
    else this.docs.set(doc.id, doc);
  }

  /** Before the words index gives `id` a new slot (a write of a stored doc): an adopted doc is found by `moved` from then on. */
  willMove(id: MemoryId): void {
    const slot = this.lazySlot(id);
    if (slot !== undefined) this.lazy!.moved.set(id, slot);
  }

  /** Removes `id`; false when it was not stored. */
  delete(id: MemoryId): boolean {
    const slot = this.lazySlot(id);
    if (slot === undefined) return this.docs.delete(id);
    const l = this.lazy!;
    l.gone[slot] = 1;
    l.made[slot] = undefined;
    l.moved.delete(id);
    return true;
  }

  /** Every doc with its id, in order (makes every adopted doc first). */
  forEach(fn: (doc: IndexDoc, id: MemoryId) => void): void {
    this.settle();
    this.docs.forEach(fn);
  }

  ids(): MemoryId[] {
    this.settle();
    return [...this.docs.keys()];
  }

  /** Replaces everything by `docs` (taken as they are). */
  adopt(docs: readonly IndexDoc[]): void {
    this.lazy = null;
    this.docs = new Map(docs.map((d) => [d.id, d]));
  }

  /** Replaces everything by the docs of `source`, made as they are read; their slots are the words index's from now until it compacts (`settle` first). */
  adoptLazy(source: LazyDocSource): void {
    const n = source.ids.length;
    this.docs = new Map();
    this.lazy = { source, made: new Array<IndexDoc | undefined>(n), gone: new Uint8Array(n), moved: new Map() };
  }

  /** Every adopted doc made and moved into the map, in the order it would have had (before a full pass, and before the words index renumbers its slots). */
  settle(): void {
    const l = this.lazy;
    if (!l) return;
    this.lazy = null;
    const all = new Map<MemoryId, IndexDoc>();
    const ids = l.source.ids;
    for (let i = 0; i < ids.length; i++) if (!l.gone[i]) all.set(ids[i], l.made[i] ?? l.source.at(i));
    for (const [id, d] of this.docs) all.set(id, d);
    this.docs = all;
  }

  /** The adopted slot of a live adopted doc (undefined: not adopted, removed since, or settled). */
  private lazySlot(id: MemoryId): number | undefined {
    const l = this.lazy;
    if (!l) return undefined;
    let slot = l.moved.get(id);
    if (slot === undefined) {
      const s = this.slotOf(id);
      if (s === undefined || s >= l.source.ids.length || l.source.ids[s] !== id) return undefined;
      slot = s;
    }
    return l.gone[slot] ? undefined : slot;
  }
}
