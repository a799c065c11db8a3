// The app's current session: a new one per tab (per services instance) and after 30 minutes
// without a capture or a recall. Each captured memory gets the session id and its 0-based
// position within the session (E4). Kept in memory (so positions are handed out synchronously,
// no two captures share one) and mirrored to settings ('session') for the UI.

import type { Memory, MemoryId } from '../core/types';

export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_SETTING = 'session';

export interface SessionState {
  id: string;
  startedAt: number;
  lastActivityAt: number;
  /** Position the next memory of this session gets. */
  next: number;
}

export class SessionClock {
  private s: SessionState;

  constructor(
    id: string,
    at: number,
    private readonly newId: () => string,
    private readonly idleMs = SESSION_IDLE_MS,
    next = 0,
  ) {
    this.s = { id, startedAt: at, lastActivityAt: at, next };
  }

  /** Starts a new session when the last activity is more than idleMs ago; returns the state. */
  private roll(at: number): SessionState {
    if (at - this.s.lastActivityAt > this.idleMs) this.s = { id: this.newId(), startedAt: at, lastActivityAt: at, next: 0 };
    return this.s;
  }

  /** Activity without a capture (a recall). */
  touch(at: number): SessionState {
    const s = this.roll(at);
    s.lastActivityAt = Math.max(s.lastActivityAt, at);
    return { ...s };
  }

  /** A capture: the session id and this memory's position in it. */
  take(at: number): { id: string; position: number } {
    const s = this.roll(at);
    s.lastActivityAt = Math.max(s.lastActivityAt, at);
    return { id: s.id, position: s.next++ };
  }

  /** The current session as of `at` (a new one after idling; not counted as activity). */
  peek(at: number): SessionState {
    return { ...this.roll(at) };
  }

  /** Corrects the next position (the session id was given and already holds memories). */
  startAt(next: number): void {
    this.s.next = Math.max(this.s.next, next);
  }

  get id(): string {
    return this.s.id;
  }

  state(): SessionState {
    return { ...this.s };
  }
}

/** 0-based position of each memory within its session, by creation time (ties by id). */
export function sessionPositions(memories: readonly Memory[]): Map<MemoryId, number> {
  const bySession = new Map<string, Memory[]>();
  for (const m of memories) {
    const list = bySession.get(m.sessionId);
    if (list) list.push(m);
    else bySession.set(m.sessionId, [m]);
  }
  const out = new Map<MemoryId, number>();
  for (const list of bySession.values()) {
    list.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    list.forEach((m, i) => out.set(m.id, i));
  }
  return out;
}

