// Each memory's neighbours in its session (the session-context stage's lookup), kept in step with
// writes (issue 13): the engine built it from every memory's meta again after each capture, edit or
// delete (a pass and a sort over 100k memories on the next recall). A write now moves one memory
// within its session's list, kept sorted by (createdAt, id); `of` answers exactly as
// `sessionNeighbours` over the same memories (tested against it after random writes).

import type { MemoryId } from '../types';
import type { NeighboursOf } from './session-context';

interface Entry {
  id: MemoryId;
  createdAt: number;
}

const before = (a: Entry, b: Entry): boolean => a.createdAt < b.createdAt || (a.createdAt === b.createdAt && a.id < b.id);
const none: readonly MemoryId[] = [];

export class SessionOrder {
  private readonly bySession = new Map<string, Entry[]>();
  private readonly sessionOf = new Map<MemoryId, string>();

  constructor(docs: Iterable<{ id: MemoryId; sessionId: string; createdAt: number }>) {
    for (const d of docs) {
      if (!d.sessionId) continue;
      let l = this.bySession.get(d.sessionId);
      if (!l) this.bySession.set(d.sessionId, (l = []));
      l.push({ id: d.id, createdAt: d.createdAt });
      this.sessionOf.set(d.id, d.sessionId);
    }
    for (const l of this.bySession.values()) l.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** The memory's session and time now (empty session: none). */
  set(id: MemoryId, sessionId: string, createdAt: number): void {
    this.remove(id);
    if (!sessionId) return;
    let l = this.bySession.get(sessionId);
    if (!l) this.bySession.set(sessionId, (l = []));
    const e = { id, createdAt };
    let lo = 0;
    let hi = l.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (before(l[mid], e)) lo = mid + 1;
      else hi = mid;
    }
    l.splice(lo, 0, e);
    this.sessionOf.set(id, sessionId);
  }

  remove(id: MemoryId): void {
    const s = this.sessionOf.get(id);
    if (s === undefined) return;
    this.sessionOf.delete(id);
    const l = this.bySession.get(s)!;
    l.splice(l.findIndex((e) => e.id === id), 1);
    if (l.length === 0) this.bySession.delete(s);
  }

  /** The one before and the one after `id` in its session. */
  of: NeighboursOf = (id) => {
    const s = this.sessionOf.get(id);
    if (s === undefined) return none;
    const l = this.bySession.get(s)!;
    const i = l.findIndex((e) => e.id === id);
    const n: MemoryId[] = [];
    if (i > 0) n.push(l[i - 1].id);
    if (i + 1 < l.length) n.push(l[i + 1].id);
    return n;
  };
}
