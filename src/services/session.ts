// The app's current session: a new one per tab (per services instance) and after 30 minutes
// without a capture or a recall. Each captured memory gets the session id and its 0-based
// position within the session (E4). Kept in memory (so positions are handed out synchronously,
// no two captures share one) and mirrored to settings ('session') for the UI.

import type { Memory, MemoryId } from '../core/types';
import { countSession, putSetting, sessionMembers } from '../db/repo';
import { logError, type ServiceContext } from './context';

export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_SETTING = 'session';

export interface SessionState {
  id: string;
  startedAt: number;
  lastActivityAt: number;
  /** Position the next memory of this session gets. */
  next: number;
  /** Captures and recalls in this session so far (the divergence gate waits for the second). */
  actions: number;
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
    this.s = { id, startedAt: at, lastActivityAt: at, next, actions: 0 };
  }

  /** Starts a new session when the last activity is more than idleMs ago; returns the state. */
  private roll(at: number): SessionState {
    if (at - this.s.lastActivityAt > this.idleMs) this.s = { id: this.newId(), startedAt: at, lastActivityAt: at, next: 0, actions: 0 };
    return this.s;
  }

  /** Activity without a capture (a recall). */
  touch(at: number): SessionState {
    const s = this.roll(at);
    s.lastActivityAt = Math.max(s.lastActivityAt, at);
    s.actions++;
    return { ...s };
  }

  /** A capture: the session id and this memory's position in it. */
  take(at: number): { id: string; position: number } {
    const s = this.roll(at);
    s.lastActivityAt = Math.max(s.lastActivityAt, at);
    s.actions++;
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


/** The services' session: ids and E4 positions for captures, touched by recalls, mirrored to settings. */
export function createSession(ctx: ServiceContext, opts: { sessionId?: string; idleMs?: number } = {}) {
  const { db } = ctx;
  const given = opts.sessionId;
  const clock = new SessionClock(given ?? ctx.newId(), ctx.now(), () => ctx.newId(), opts.idleMs ?? SESSION_IDLE_MS);
  // A given session id may already hold memories: their count is the next position. If it
  // cannot be read, positions start at 0 (E4 only, nothing else depends on it): logged.
  const ready: Promise<void> = given
    ? countSession(db, given).then(
        (n) => clock.startAt(n),
        (e) => logError(e, 'could not count the given session; its positions start at 0'),
      )
    : Promise.resolve();

  return {
    /** The current session (id, start, last activity, next position). */
    sessionState: (): SessionState => clock.peek(ctx.now()),
    /** The current session id as of `at` (a new one after idling; not counted as activity). */
    idAt: (at: number): string => clock.peek(at).id,
    /** A recall: activity without a capture. */
    touch: (): void => void clock.touch(ctx.now()),

    /** Session id and E4 position for a capture at `t` (an import may bring its own session). */
    async place(t: number, own?: string, counts?: Map<string, number>): Promise<{ id: string; position: number }> {
      await ready;
      if (own === undefined || own === clock.id) return clock.take(t);
      const c = counts ?? new Map<string, number>();
      if (!c.has(own)) c.set(own, await countSession(db, own));
      const position = c.get(own)!;
      c.set(own, position + 1);
      return { id: own, position };
    },

    /** Mirrors the session to settings for the UI; a failure costs only that mirror: logged. */
    persist(): Promise<void> {
      return putSetting(db, SESSION_SETTING, clock.state()).catch((e: unknown) => logError(e, 'could not save the session state'));
    },

    /** A stored memory's E4 position within its session (its text changed: features are recomputed). */
    async positionOf(m: Memory): Promise<number> {
      const same = await sessionMembers(db, m.sessionId);
      return sessionPositions(same.some((x) => x.id === m.id) ? same : [...same, m]).get(m.id) ?? 0;
    },
  };
}

export type Session = ReturnType<typeof createSession>;
