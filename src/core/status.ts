// The status gate, written once for every read path (hybrid lists, space candidates, the
// standard pool, lateral candidates, associative hops, the divergence window).
//
// The rule: a deleted memory is never returned; an archived or quarantined one only when the
// caller asked for it (includeArchived / includeQuarantined); an active one always. Quarantine
// follows the search-options design (recall leaves quarantined memories out unless asked, so a
// person can review them); archived follows the associative-retrieval design (the default mode
// reads active memories; explicit modes may include archived ones). Deletion is ours.
// Time (seed 001, asOf): with `asOf` set, only memories whose valid-time interval contains it
// (validFrom <= asOf < validTo; validTo null = open-ended) pass; absent = no time condition.

import type { MemoryStatus } from './types';

export interface StatusGate {
  includeArchived?: boolean;
  includeQuarantined?: boolean;
  /** Epoch ms: only memories valid at this instant. null / undefined = no time condition. */
  asOf?: number | null;
}

/** The status part of the gate (no tombstone): active always, archived / quarantined when asked. */
export function statusAllowed(status: MemoryStatus, gate: StatusGate): boolean {
  if (status === 'active') return true;
  if (status === 'archived') return gate.includeArchived === true;
  if (status === 'quarantined') return gate.includeQuarantined === true;
  return false;
}

/**
 * validFrom <= asOf < validTo, inclusive from, exclusive to; validTo null (or absent) = open-ended;
 * a missing validFrom = since always. asOf null / undefined: every memory.
 */
export function validAt(d: { validFrom?: number; validTo?: number | null }, asOf: number | null | undefined): boolean {
  if (asOf === undefined || asOf === null) return true;
  if (d.validFrom !== undefined && !(d.validFrom <= asOf)) return false;
  return d.validTo === undefined || d.validTo === null || asOf < d.validTo;
}

/** The whole gate: never a missing or deleted (tombstoned) memory, then statusAllowed, then validAt. */
export function isRecallable(
  d: { status: MemoryStatus; deletedAt?: number | null; validFrom?: number; validTo?: number | null } | undefined,
  gate: StatusGate,
): boolean {
  return d !== undefined && d.deletedAt == null && statusAllowed(d.status, gate) && validAt(d, gate.asOf);
}
