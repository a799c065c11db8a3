// The one database, its rows and its versions. Every schema change is a new version here with an
// upgrade that migrates existing rows; a version, once shipped, is never edited.

import type { Memory, MemoryId, RetrievalMode, SpaceId } from '../core/types';

export const DB_NAME = 'mnemograph';
/** The version this code writes. Dexie stores it multiplied by 10 in IndexedDB. */
export const DB_VERSION = 2;

/** A memory row is the core's Memory as is; the id is a UUIDv7 string (sortable by time). */
export type MemoryRow = Memory;

export type VectorDtype = 'float32';

/** One row per (memory, space). The vector is packed in `data` and is not indexed. */
export interface VectorRow {
  memoryId: MemoryId;
  space: SpaceId;
  dim: number;
  dtype: VectorDtype;
  /** Id of the model + preprocessing that produced it (vectors of different models never mix). */
  model: string;
  data: ArrayBuffer;
}

export interface SettingRow {
  key: string;
  value: unknown;
}

export type FeedbackKind = 'reinforce' | 'suppress';

export interface FeedbackRow {
  id: string; // UUIDv7
  memoryId: MemoryId;
  kind: FeedbackKind;
  valence?: number;
  reason?: string;
  at: number;
  mode?: RetrievalMode;
}

/** Version 1: memories, vectors, settings. */
export const STORES_V1 = {
  memories: 'id, createdAt, status, sessionId, *tags',
  vectors: '[memoryId+space], memoryId',
  settings: 'key',
} as const;

/**
 * Version 2: the feedback table (reinforce / suppress events), and memories indexed by
 * updatedAt and deletedAt (tombstones; null is not a valid key, so only deleted rows are in
 * that index, which makes counting live rows cheap). See upgradeMemoryV1toV2 for the row changes.
 */
export const STORES_V2 = {
  memories: 'id, createdAt, updatedAt, status, sessionId, *tags, deletedAt',
  vectors: '[memoryId+space], memoryId',
  settings: 'key',
  feedback: 'id, memoryId, at, kind',
} as const;

/**
 * A v1 row lacked deletedAt (deleted rows were removed outright), suggestedTags, embedTruncated,
 * updatedAt and the valid-time interval, and its tags were stored as typed. Fill the defaults and
 * normalise the tags the way validate.ts does, so the v2 code can rely on every field.
 */
export function upgradeMemoryV1toV2(row: Record<string, unknown>, normaliseTags: (t: string[]) => string[]): void {
  const createdAt = typeof row.createdAt === 'number' ? row.createdAt : Date.now();
  row.createdAt = createdAt;
  if (typeof row.updatedAt !== 'number') row.updatedAt = createdAt;
  if (typeof row.validFrom !== 'number') row.validFrom = createdAt;
  if (row.validTo === undefined) row.validTo = null;
  if (row.deletedAt === undefined) row.deletedAt = null;
  if (!Array.isArray(row.suggestedTags)) row.suggestedTags = [];
  if (typeof row.embedTruncated !== 'boolean') row.embedTruncated = false;
  if (typeof row.importance !== 'number' || !Number.isFinite(row.importance)) row.importance = 0.5;
  if (row.status !== 'active' && row.status !== 'quarantined' && row.status !== 'archived') row.status = 'active';
  if (typeof row.sessionId !== 'string') row.sessionId = 'legacy';
  row.tags = normaliseTags(Array.isArray(row.tags) ? (row.tags.filter((t) => typeof t === 'string') as string[]) : []);
}
