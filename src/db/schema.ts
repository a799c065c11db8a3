// The one database, its rows and its versions. Every schema change is a new version here with an
// upgrade that migrates existing rows; a version, once shipped, is never edited.

import { serializeSpace } from '../core/spaces';
import type { EntityMentionRow, EntityNode, MentionCounts } from '../core/entities';
import type { Memory, MemoryId, RetrievalMode, SpaceId } from '../core/types';

export const DB_NAME = 'mnemograph';
/** The version this code writes. Dexie stores it multiplied by 10 in IndexedDB. */
export const DB_VERSION = 13;

/**
 * A memory row is the core's Memory; the id is a UUIDv7 string (sortable by time). Since v5 an
 * imported memory also carries `importKey` (src/io dedupeKey of the draft it came from), so a
 * re-run of the same import finds it and skips the draft.
 */
export type MemoryRow = Memory & {
  importKey?: string;
  /**
   * Since v6: textKey(text) (src/core/text-key.ts), indexed, so saving the same text twice is
   * found with one index read. Written by the repository on every insert and text change.
   */
  textKey?: string;
};

/** Since v5: a Markdown [[wikilink]] from one imported memory to another. */
export interface LinkRow {
  fromId: MemoryId;
  toId: MemoryId;
  kind: 'wikilink';
}

/**
 * 'space': serializeSpace() of src/core/spaces (a 4-byte header, then the space's payload), for
 * every space since v4. 'float32' (a raw Float32Array) is how v3 and earlier stored E1; the v4
 * upgrade rewrote those rows.
 */
export type VectorDtype = 'float32' | 'space';

/** One row per (memory, space) present. The vector is packed in `data` and is not indexed. */
export interface VectorRow {
  memoryId: MemoryId;
  space: SpaceId;
  /** Bytes of `data` ('space'); floats for a pre-v4 'float32' row. */
  dim: number;
  dtype: VectorDtype;
  /**
   * Id of what produced it (vectors of different producers never mix): the encoder's id for the
   * encoder spaces (E1, E5, E10), the featurizer's lexical id for the others (see featurizer.ts).
   */
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
  /** reinforce: -100..100 since v3 (v2 stored -1..1; the v3 upgrade scaled it). */
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

/**
 * Version 3: the thirteen spaces. Vector rows of every space (E2..E13 serialised, dtype 'space')
 * and an index on `space`, so the backfill can find memories whose features are missing or
 * stale by reading one space's rows. Reinforcement valence moved from -1..1 to -100..100, the
 * scale of the lateral-retrieval design's reinforce reply ("valence=50"; upgradeFeedbackV2toV3).
 * Memories are unchanged: v2 memories have only an E1 row and
 * are featurized by featurizeMissing() after start-up.
 */
export const STORES_V3 = {
  memories: 'id, createdAt, updatedAt, status, sessionId, *tags, deletedAt',
  vectors: '[memoryId+space], memoryId, space',
  settings: 'key',
  feedback: 'id, memoryId, at, kind',
} as const;

/** A v2 reinforce valence was in -1..1; v3 uses -100 (strongly against) .. 100 (strongly for), the scale of the
 * lateral-retrieval design's reinforce reply ("valence=50"). Suppressions drop theirs (unused). */
export function upgradeFeedbackV2toV3(row: Record<string, unknown>): void {
  if (typeof row.valence !== 'number' || !Number.isFinite(row.valence)) {
    delete row.valence;
    return;
  }
  if (row.kind === 'reinforce') row.valence = Math.max(-100, Math.min(100, Math.round(row.valence * 100)));
  else delete row.valence;
}

/** Version 4: E1 is stored like every other space (dtype 'space'); the stores are unchanged. */
export const STORES_V4 = STORES_V3;

/**
 * A v3 E1 row held the raw floats (dtype 'float32'); v4 stores serializeSpace('E1', floats) like
 * every other space. A malformed row (a length that is not whole floats) cannot be read: it keeps
 * its bytes but loses its producer id, so it counts as stale and the backfill recomputes it from
 * the memory's text. The memory itself is never touched.
 */
export function upgradeVectorV3toV4(row: Record<string, unknown>): void {
  if (row.dtype !== 'float32') return;
  const data = row.data;
  if (!(data instanceof ArrayBuffer) || data.byteLength % 4 !== 0 || data.byteLength === 0) {
    row.model = '';
    return;
  }
  const packed = serializeSpace('E1', new Float32Array(data));
  row.data = packed;
  row.dtype = 'space';
  row.dim = packed.byteLength;
}

/**
 * Version 5 (import / export): memories indexed by `importKey` (only imported rows have one, so
 * the index holds just those), and the `links` table, keyed by the pair so a link is stored once.
 * Additive: every v4 row is a valid v5 row as it is (no importKey = not imported), so no upgrade
 * function rewrites anything.
 */
export const STORES_V5 = {
  memories: 'id, createdAt, updatedAt, status, sessionId, *tags, deletedAt, importKey',
  vectors: '[memoryId+space], memoryId, space',
  settings: 'key',
  feedback: 'id, memoryId, at, kind',
  links: '[fromId+toId], fromId, toId',
} as const;

/**
 * Version 6 (keeping memories, issue 9): versions, trash, decay, the full list.
 * - `supersededBy`: only earlier versions have it (the current version keeps the memory's id),
 *   so the index lists exactly the history rows; `memoryHistory` reads it.
 * - `textKey`: the normalised text's key, for "already saved".
 * - `importance`, `source`, `lastAccessedAt`: the full list's filters and sorts read index keys
 *   only (no row is deserialised until its header is shown).
 * Every v5 row gets recordedAt (its updatedAt), lastAccessedAt (its newest feedback, else its
 * createdAt), strength 1 and its textKey; memories of the sample collection (session ids
 * `s-YYYY-MM-DD-x`, see src/sample) loaded before v6 get their `sample:` import key. No row is
 * removed.
 */
export const STORES_V6 = {
  memories: 'id, createdAt, updatedAt, status, sessionId, *tags, deletedAt, importKey, supersededBy, textKey, importance, source, lastAccessedAt',
  vectors: '[memoryId+space], memoryId, space',
  settings: 'key',
  feedback: 'id, memoryId, at, kind',
  links: '[fromId+toId], fromId, toId',
} as const;

/** The import key prefix of the sample collection's memories (removeSample, the `sample` filter). */
export const SAMPLE_KEY_PREFIX = 'sample:';
/** Session ids of the sample collection (src/sample/README.md: `s-2026-05-02-a`...). */
const SAMPLE_SESSION = /^s-\d{4}-\d{2}-\d{2}-[a-z]+$/;
/** Whether a session id is one of the sample collection's (src/sample/README.md). */
export const isSampleSession = (id: unknown): boolean => typeof id === 'string' && SAMPLE_SESSION.test(id);

export function upgradeMemoryV5toV6(row: Record<string, unknown>, lastFeedbackAt: Map<string, number>, keyOf: (text: string) => string): void {
  const createdAt = typeof row.createdAt === 'number' ? row.createdAt : 0;
  if (typeof row.recordedAt !== 'number') row.recordedAt = typeof row.updatedAt === 'number' ? row.updatedAt : createdAt;
  if (typeof row.lastAccessedAt !== 'number') row.lastAccessedAt = Math.max(createdAt, lastFeedbackAt.get(String(row.id)) ?? -Infinity);
  if (typeof row.strength !== 'number' || !Number.isFinite(row.strength) || row.strength < 1) row.strength = 1;
  if (typeof row.text === 'string') row.textKey = keyOf(row.text);
  if (row.importKey === undefined && isSampleSession(row.sessionId)) {
    row.importKey = `${SAMPLE_KEY_PREFIX}${String(row.id)}`;
  }
}

/**
 * The v6 fields every stored row carries, filled where a writer left them out (an import, a
 * restore of an older backup): textKey from the text, recordedAt = updatedAt, lastAccessedAt =
 * createdAt, strength 1. `keyOf` is textKey (src/core/text-key.ts).
 */
export function withV6Fields(row: MemoryRow, keyOf: (text: string) => string): MemoryRow {
  return {
    ...row,
    textKey: keyOf(row.text),
    recordedAt: row.recordedAt ?? row.updatedAt,
    lastAccessedAt: row.lastAccessedAt ?? row.createdAt,
    strength: row.strength ?? 1,
  };
}

/**
 * Since v7: a vector of the encoder being switched to (issue 8), kept apart from `vectors` until
 * every live memory has one, then moved there in one transaction (the flip). `model` is that
 * encoder's id; `inputKey` (encoderInputKey) says which text and captions it was computed from,
 * so a memory edited meanwhile is computed again. Only the encoder's spaces (E1, E5, E10).
 */
export interface PendingVectorRow extends VectorRow {
  inputKey: string;
}

/**
 * Version 7 (switching encoders, issue 8; on top of v6, issue 9's): the `pendingVectors` table, keyed
 * like `vectors`, indexed by space (progress reads the E1 rows) and by memory. The upgrade
 * (upgradeEncoderV5toV7) records which encoder the stored vectors came from, so a store made
 * with an older encoder keeps searching with it until a switch to the new one has finished.
 */
export const STORES_V7 = {
  ...STORES_V6,
  pendingVectors: '[memoryId+space], memoryId, space',
} as const;

/** Setting keys of the encoder choice (src/services/encoder-switch.ts reads and writes them). */
export const ENCODER_SETTING = 'encoder';
export const ENCODER_SWITCH_SETTING = 'encoderSwitch';
export const CUSTOM_ENCODERS_SETTING = 'customEncoders';

/**
 * The encoder a v5 store's vectors came from: the producer of most E1 rows ('' when there are
 * none: a new store uses the default). Ties go to the id that sorts first, so the result is stable.
 */
export function encoderOfRows(models: string[]): string {
  const counts = new Map<string, number>();
  for (const m of models) if (m) counts.set(m, (counts.get(m) ?? 0) + 1);
  let best = '';
  let n = 0;
  for (const [m, c] of [...counts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) if (c > n) [best, n] = [m, c];
  return best;
}

/**
 * Since v8: a canonical entity node (src/core/entities: key, hash, name, aliases, mentionCount).
 * `counts` (not indexed, so no schema version): the tallies the node is computed from, kept so a
 * write adjusts them instead of re-reading every mention; absent on nodes written before them.
 */
export type EntityRow = EntityNode & { counts?: MentionCounts };
/** Since v8: one (memory, entity) pair with the spelling the memory uses. */
export type { EntityMentionRow };

/**
 * Version 8 (deep recall, issue 11; on top of v7's): the canonical entity nodes and their
 * mentions, and the deep-search log. Additive: no stored row changes; the upgrade only marks the
 * entity index as pending (ENTITY_BACKFILL_KEY), so the services
 * fill it from the stored memories once the embed worker (which runs the recogniser) is up.
 */
export const STORES_V8 = {
  ...STORES_V7,
  entities: 'key, hash, mentionCount',
  entityMentions: '[memoryId+entityKey], memoryId, entityKey, hash',
  deepSearchLog: '++seq, at, sessionId, status',
} as const;

/**
 * Since v8: one deep-search escalation (seed 003's shadow log, kept in active mode too): the
 * query, the primary ids, the pool with how each candidate was found, the reader's scores and
 * reasons, the timings. Appended by the services; never read by recall.
 */
export interface DeepSearchLogRow {
  seq?: number;
  at: number;
  sessionId: string;
  query: string;
  /** shadow | merged | timeout | error | rate-limited */
  status: string;
  mode: 'shadow' | 'active' | 'adaptive';
  /** The query's category (adaptive.ts; rows since the adaptive mode). */
  category?: string;
  confidence: number;
  threshold: number;
  primaryIds: string[];
  pool: { id: string; primaryRank: number | null; via: { strategy: string; seed: string; detail: string }[] }[];
  scores: { id: string; score: number; reasons: string[] }[];
  timings: { expandMs: number; readMs: number; totalMs: number };
  error?: string;
}

/** Settings row: 'pending' while the memories stored before v8 still need their entities. */
export const ENTITY_BACKFILL_KEY = 'entityBackfill';

/**
 * Since v9: the head of a block of features (src/db/feature-blocks.ts): up to BLOCK_SIZE
 * memories' entries of one space from one producer. `ids` is multi-entry indexed (which block
 * holds a memory); `n` numbers the blocks of a (space, producer); `dim` is the floats of each
 * dense vector (E1, E5, E10: the encoder's width) and 0 for the lexical spaces' variable entries.
 */
export interface FeatureHeadRow {
  key: string;
  space: SpaceId;
  /** The producer of every entry: the encoder's id (E1, E5, E10) or the lexical id. */
  model: string;
  n: number;
  dim: number;
  ids: MemoryId[];
  /** Size of the data buffer. */
  bytes: number;
}

/** Since v9: the data of a block, keyed like its head: `spans` (u32 start, length per entry), `data` the entries (8-byte aligned). */
export interface FeatureDataRow {
  key: string;
  spans: ArrayBuffer;
  data: ArrayBuffer;
}

/**
 * Version 9 (a lifetime of memories, issue 13): features move from one `vectors` row per
 * (memory, space) to packed blocks, a head (small, indexed) and a data row each. The upgrade
 * (migrateVectorsToBlocks) copies every row into blocks, byte for byte, then the `vectors` table
 * is dropped; it runs in the one upgrade transaction, so a failure leaves the v8 store as it was.
 * `pendingVectors` (a switch's transient rows) keeps one row per (memory, space).
 */
export const STORES_V9 = {
  ...STORES_V8,
  vectors: null,
  featureHeads: 'key, [space+model], *ids',
  featureData: 'key',
} as const;
