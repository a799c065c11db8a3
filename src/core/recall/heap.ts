// A bounded "best K" heap: keeps the K best items by score desc, id asc (the stable tie-break used
// everywhere in recall). The root is the worst kept item, so a push is O(log K).

export interface Ranked {
  readonly id: string;
  readonly score: number;
}

/** a ranks before b: higher score first, then smaller id. */
export function ranksBefore(a: Ranked, b: Ranked): boolean {
  return a.score > b.score || (a.score === b.score && a.id < b.id);
}

export function compareRanked(a: Ranked, b: Ranked): number {
  if (a.score !== b.score) return b.score - a.score;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export class TopKHeap<T extends Ranked> {
  private readonly items: T[] = [];
  constructor(readonly capacity: number) {}

  get size(): number {
    return this.items.length;
  }

  /** The worst kept item (the next one pushed out); undefined when empty. */
  get worst(): T | undefined {
    return this.items[0];
  }

  push(x: T): void {
    if (this.capacity <= 0) return;
    const h = this.items;
    if (h.length < this.capacity) {
      h.push(x);
      this.up(h.length - 1);
    } else if (ranksBefore(x, h[0])) {
      h[0] = x;
      this.down(0);
    }
  }

  /** Kept items, best first. */
  sorted(): T[] {
    return this.items.slice().sort(compareRanked);
  }

  // Heap order: parent is *worse* than (ranks after) its children.
  private up(i: number): void {
    const h = this.items;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!ranksBefore(h[p], h[i])) break;
      [h[p], h[i]] = [h[i], h[p]];
      i = p;
    }
  }

  private down(i: number): void {
    const h = this.items;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let w = i;
      if (l < h.length && ranksBefore(h[w], h[l])) w = l;
      if (r < h.length && ranksBefore(h[w], h[r])) w = r;
      if (w === i) return;
      [h[w], h[i]] = [h[i], h[w]];
      i = w;
    }
  }
}
