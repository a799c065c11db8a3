// Cost and latency bounds of the deep-search design (seed 003, E): the token budget (the pool
// trimmed to fit, lowest priority first), the timeout and the per-session rate limit.

import type { ReaderCandidate } from './reader';

/** Tokens of a text, estimated at 4 characters a token (rounded up). */
export const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/** Per candidate: its text plus ~8 tokens of framing (id, separators). */
export const CANDIDATE_OVERHEAD_TOKENS = 8;

/**
 * The longest prefix of `pool` (priority order) whose query + candidates fit `budget` tokens.
 * A candidate that does not fit ends the prefix (the ones after it are lower priority).
 */
export function trimToBudget<T extends Pick<ReaderCandidate, 'text'>>(query: string, pool: readonly T[], budget: number): T[] {
  let used = estimateTokens(query);
  const out: T[] = [];
  for (const c of pool) {
    const t = estimateTokens(c.text) + CANDIDATE_OVERHEAD_TOKENS;
    if (used + t > budget) break;
    used += t;
    out.push(c);
  }
  return out;
}

/** Escalations per session: take() is true while the session has escalated fewer than `limit` times. */
export class SessionRateLimiter {
  private readonly used = new Map<string, number>();
  constructor(private readonly limit: number) {}
  /** `limit` overrides the constructor's for this call (the per-call option). */
  take(sessionId: string, limit = this.limit): boolean {
    const n = this.used.get(sessionId) ?? 0;
    if (n >= limit) return false;
    this.used.set(sessionId, n + 1);
    return true;
  }
  count(sessionId: string): number {
    return this.used.get(sessionId) ?? 0;
  }
}

export const TIMED_OUT: unique symbol = Symbol('timed out');

/** The host's timers (the core has no host globals of its own; pass { setTimeout, clearTimeout }). */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: never): void;
}

/** `p`'s value, or TIMED_OUT after `ms` (the timer is cleared either way). */
export function withTimeout<T>(p: Promise<T>, ms: number, timers: Timers): Promise<T | typeof TIMED_OUT> {
  let timer: unknown;
  const t = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = timers.setTimeout(() => resolve(TIMED_OUT), ms);
  });
  return Promise.race([p, t]).finally(() => timers.clearTimeout(timer as never));
}
