// Feedback events: validation of the stored form, the core's event shape, and the lines shown
// after reinforce / suppress (seed 000's memory_reinforce wording plus the UI's icon).

import { AppError } from '../core/errors';
import { formatReinforce, validateValence } from '../core/recall';
import type { MemoryId } from '../core/types';
import type { EngineFeedbackEvent } from '../protocol/engine';
import type { FeedbackRow } from '../db/schema';
import type { FeedbackInput } from './types';

export function validateFeedback(f: unknown): FeedbackInput {
  if (typeof f !== 'object' || f === null) throw new AppError('INVALID_OPTION', 'Feedback must be an object.');
  const r = f as Record<string, unknown>;
  if (typeof r.memoryId !== 'string' || !r.memoryId) throw new AppError('INVALID_OPTION', 'Feedback needs a memory id.');
  if (r.kind !== 'reinforce' && r.kind !== 'suppress') throw new AppError('INVALID_OPTION', "Feedback kind must be 'reinforce' or 'suppress'.");
  if (r.valence !== undefined) validateValence(r.valence); // -100..100, the seed's scale
  if (r.reason !== undefined && (typeof r.reason !== 'string' || r.reason.length > 500))
    throw new AppError('INVALID_OPTION', 'The reason must be text of at most 500 characters.');
  if (r.mode !== undefined && r.mode !== 'standard' && r.mode !== 'lateral' && r.mode !== 'associative')
    throw new AppError('INVALID_OPTION', 'Unknown retrieval mode.');
  return r as unknown as FeedbackInput;
}

/** A stored feedback row as the core's event (valence defaults to 0 for a reinforce without one). */
export function toFeedbackEvent(row: FeedbackRow): EngineFeedbackEvent {
  return row.kind === 'reinforce'
    ? { kind: 'reinforce', id: row.memoryId, valence: row.valence ?? 0, at: row.at }
    : { kind: 'suppress', id: row.memoryId, ...(row.reason !== undefined ? { reason: row.reason } : {}), at: row.at };
}

/** "👍 Reinforced 'm' with valence=50 (lateral result — feedback recorded)" (👎 below zero). */
export function formatReinforceLine(id: MemoryId, valence: number, wasLateral: boolean): string {
  return `${valence < 0 ? '👎' : '👍'} ${formatReinforce(id, valence, wasLateral)}`;
}

export function formatSuppressLine(id: MemoryId, reason: string | undefined, wasLateral: boolean): string {
  const base = `🚫 Suppressed '${id}'${reason ? ` (${reason})` : ''}`;
  return wasLateral ? `${base} (lateral result — feedback recorded)` : base;
}

