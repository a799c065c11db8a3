// How reinforce(id, valence) and suppress(id, reason) change FUTURE ranking.
//
//  - Reinforcement: each memory accumulates net valence (sum of valences, each in [-100, 100]).
//    Its standard and lateral scores are multiplied by 1 + 0.5 * tanh(net / 200): bounded in
//    (0.5, 1.5), +23% after one +100, saturating so repeated clicks cannot run away.
//  - Suppression: a suppressed memory's scores are multiplied by 0.2 (demoted, still findable by a
//    precise query) and it is excluded from lateral and associative results entirely. A later
//    positive reinforcement lifts the suppression (the latest of the two wins; same instant: the
//    later event in the log wins).

import { AppError, MESSAGES } from '../errors';
import type { MemoryId } from '../types';
import { compareRanked } from './heap';

export const VALENCE_MIN = -100;
export const VALENCE_MAX = 100;
export const BOOST_CAP = 0.5;
export const VALENCE_SCALE = 200;
export const SUPPRESSED_FACTOR = 0.2;
export const MAX_REASON_LENGTH = 500;

export type FeedbackEvent =
  | { kind: 'reinforce'; id: MemoryId; valence: number; at: number }
  | { kind: 'suppress'; id: MemoryId; reason?: string; at: number };

export interface MemoryFeedback {
  net: number;
  reinforcements: number;
  suppressions: number;
  suppressed: boolean;
  lastReason?: string;
}

export function validateValence(valence: unknown): number {
  if (typeof valence !== 'number' || !Number.isFinite(valence) || valence < VALENCE_MIN || valence > VALENCE_MAX)
    throw new AppError(
      'INVALID_OPTION',
      `Valence must be a number from ${VALENCE_MIN} to ${VALENCE_MAX}; got ${String(valence)}.`,
    );
  return valence;
}

/**
 * The one check of a suppression reason (services, UI and the stored log use it): optional text,
 * trimmed, at most MAX_REASON_LENGTH characters after trimming. Returns the trimmed reason, or
 * undefined when there is none (absent or blank). Throws AppError('INVALID_OPTION').
 */
export function validateFeedbackReason(reason: unknown): string | undefined {
  if (reason === undefined) return undefined;
  if (typeof reason !== 'string') throw new AppError('INVALID_OPTION', MESSAGES.tooLong('A reason', MAX_REASON_LENGTH));
  const r = reason.trim();
  if (r.length > MAX_REASON_LENGTH) throw new AppError('INVALID_OPTION', MESSAGES.tooLong('A reason', MAX_REASON_LENGTH));
  return r === '' ? undefined : r;
}

function validateEvent(e: unknown): FeedbackEvent {
  const o = e as Record<string, unknown> | null;
  if (!o || typeof o !== 'object') throw new AppError('INVALID_OPTION', 'A feedback event must be an object.');
  if (typeof o.id !== 'string' || o.id === '') throw new AppError('INVALID_OPTION', 'A feedback event needs a memory id.');
  if (typeof o.at !== 'number' || !Number.isFinite(o.at))
    throw new AppError('INVALID_OPTION', `A feedback event needs a time (epoch ms); got ${String(o.at)}.`);
  if (o.kind === 'reinforce') return { kind: 'reinforce', id: o.id, valence: validateValence(o.valence), at: o.at };
  if (o.kind === 'suppress') {
    validateFeedbackReason(o.reason);
    return { kind: 'suppress', id: o.id, reason: o.reason as string | undefined, at: o.at };
  }
  throw new AppError('INVALID_OPTION', `Unknown feedback kind ${JSON.stringify(o.kind)} (expected "reinforce" or "suppress").`);
}

/** The score multiplier for one memory's feedback. */
export function feedbackFactor(f: MemoryFeedback | undefined): number {
  if (!f) return 1;
  if (f.suppressed) return SUPPRESSED_FACTOR;
  return 1 + BOOST_CAP * Math.tanh(f.net / VALENCE_SCALE);
}

export class FeedbackState {
  private readonly byId = new Map<MemoryId, MemoryFeedback>();
  private lastAt = -Infinity;
  /** Stored events that were malformed and skipped by fromEvents (reported, never applied). */
  skipped = 0;

  /** Build from the stored log (any order; sorted by time, stable). Malformed rows are skipped and counted. */
  static fromEvents(events: readonly unknown[]): FeedbackState {
    const st = new FeedbackState();
    const valid: { e: FeedbackEvent; i: number }[] = [];
    events.forEach((raw, i) => {
      try {
        valid.push({ e: validateEvent(raw), i });
      } catch {
        st.skipped++;
      }
    });
    valid.sort((a, b) => a.e.at - b.e.at || a.i - b.i);
    for (const { e } of valid) st.apply(e);
    return st;
  }

  /** Whether `event` can be recorded as it is: it is not older than the newest one applied. */
  inOrder(event: Pick<FeedbackEvent, 'at'>): boolean {
    return event.at >= this.lastAt;
  }

  /** Add one live event (validated; throws AppError on bad input). Events older than the last are refused. */
  record(event: FeedbackEvent): this {
    const e = validateEvent(event);
    if (e.at < this.lastAt)
      throw new AppError('INVALID_OPTION', 'Feedback events must be recorded in time order; rebuild with FeedbackState.fromEvents.');
    this.apply(e);
    return this;
  }

  private apply(e: FeedbackEvent): void {
    this.lastAt = Math.max(this.lastAt, e.at);
    let f = this.byId.get(e.id);
    if (!f) {
      f = { net: 0, reinforcements: 0, suppressions: 0, suppressed: false };
      this.byId.set(e.id, f);
    }
    if (e.kind === 'reinforce') {
      f.net += e.valence;
      f.reinforcements++;
      if (e.valence > 0) f.suppressed = false;
    } else {
      f.suppressions++;
      f.suppressed = true;
      if (e.reason !== undefined) f.lastReason = e.reason;
    }
  }

  get(id: MemoryId): Readonly<MemoryFeedback> | undefined {
    return this.byId.get(id);
  }

  factor(id: MemoryId): number {
    return feedbackFactor(this.byId.get(id));
  }

  isSuppressed(id: MemoryId): boolean {
    return this.byId.get(id)?.suppressed === true;
  }

  get size(): number {
    return this.byId.size;
  }

  /** The memories suppressed now (a walk never reaches them). */
  suppressedIds(): MemoryId[] {
    const out: MemoryId[] = [];
    this.byId.forEach((f, id) => {
      if (f.suppressed) out.push(id);
    });
    return out;
  }
}

/**
 * Re-rank hits by their feedback: score * factor, then score desc, id asc. Hits without feedback
 * keep their score; when no hit has feedback the input is returned as is (same order, same objects).
 */
export function applyFeedback<T extends { id: MemoryId; score: number }>(
  hits: readonly T[],
  state: FeedbackState | null | undefined,
): (T & { feedbackFactor?: number })[] {
  if (!state || state.size === 0) return hits as T[];
  let changed = false;
  const out = hits.map((h) => {
    const f = state.factor(h.id);
    if (f === 1) return h;
    changed = true;
    return { ...h, score: h.score * f, feedbackFactor: f };
  });
  if (!changed) return hits as T[];
  return out.sort(compareRanked);
}
