// The status gate, written once for every read path (hybrid lists, space candidates, the
// standard pool, lateral candidates, associative hops).
//
// The rule: a deleted memory is never returned; an archived or quarantined one only when the
// caller asked for it (includeArchived / includeQuarantined); an active one always. Quarantine
// follows the search-options design (recall leaves quarantined memories out unless asked, so a
// person can review them); archived follows the associative-retrieval design (the default mode
// reads active memories; explicit modes may include archived ones). Deletion is ours.

import type { MemoryStatus } from './types';

export interface StatusGate {
  includeArchived?: boolean;
  includeQuarantined?: boolean;
}

/** The status part of the gate (no tombstone): active always, archived / quarantined when asked. */
export function statusAllowed(status: MemoryStatus, gate: StatusGate): boolean {
  if (status === 'active') return true;
  if (status === 'archived') return gate.includeArchived === true;
  if (status === 'quarantined') return gate.includeQuarantined === true;
  return false;
}

/** The whole gate: never a missing or deleted (tombstoned) memory, then statusAllowed. */
export function isRecallable(d: { status: MemoryStatus; deletedAt?: number | null } | undefined, gate: StatusGate): boolean {
  return d !== undefined && d.deletedAt == null && statusAllowed(d.status, gate);
}
