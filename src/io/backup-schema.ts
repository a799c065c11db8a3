// The JSON backup's shape, checked with valibot (see README for why valibot). One schema per
// kind of row; a row that fails its schema is reported with its path and skipped, whole.
// Rows are the database's rows as they are (src/db/schema.ts); the types below restate them
// structurally so this layer does not import the database (backup.test.ts checks they agree).

import * as v from 'valibot';
import { MAX_SOURCE_LENGTH, MAX_TAG_LENGTH, MAX_TAGS } from '../core/validate';
import type { Memory, SpaceId } from '../core/types';
import { MAX_TIME, MIN_TIME } from './text';
import type { ImageEntry, ImageRecord } from './backup-images';

export const BACKUP_FORMAT = 'mnemograph-backup';
/** The newest version this code reads: 2 adds `images` (backup-images.ts); a backup without pictures is still written as 1. */
export const BACKUP_VERSION = 2;

/** A stored vector: the serialised buffer as the database holds it (see VectorRow). */
export interface VectorRecord {
  memoryId: string;
  space: SpaceId;
  dim: number;
  dtype: 'float32' | 'space';
  model: string;
  data: ArrayBuffer;
}

export interface FeedbackRecord {
  id: string;
  memoryId: string;
  kind: 'reinforce' | 'suppress';
  valence?: number;
  reason?: string;
  at: number;
  mode?: 'standard' | 'lateral' | 'associative';
}

export interface SettingRecord {
  key: string;
  value: unknown;
}

/**
 * A past version of a memory (issue 9's history). Its exact fields belong to that schema; the
 * backup requires an id and the memory it belongs to and keeps every other field as it is.
 */
export interface VersionRecord {
  id: string;
  memoryId: string;
  [field: string]: unknown;
}

/** A link between two memories (schema v5: a Markdown [[wikilink]] resolved at import). */
export interface LinkRecord {
  fromId: string;
  toId: string;
  kind: 'wikilink';
}

/** The rows a backup is built from, as read from the database. */
export interface BackupRows {
  memories: Memory[];
  versions?: VersionRecord[];
  links?: LinkRecord[];
  feedback: FeedbackRecord[];
  settings: SettingRecord[];
  vectors?: VectorRecord[];
  /** Since backup version 2: the stored pictures (schema v10). */
  images?: ImageRecord[];
}

/** A vector as written in the file: the buffer as base64. */
export type VectorEntry = Omit<VectorRecord, 'data'> & { data: string };

export interface BackupDocument {
  format: typeof BACKUP_FORMAT;
  version: 1 | 2;
  exportedAt: string;
  app: { name: string; version: string };
  memories: Memory[];
  versions?: VersionRecord[];
  links?: LinkRecord[];
  feedback: FeedbackRecord[];
  settings: SettingRecord[];
  vectors?: VectorEntry[];
  /** Version 2 only. */
  images?: ImageEntry[];
}

const SPACES = ['E1', 'E2', 'E3', 'E4', 'E5', 'E6', 'E7', 'E8', 'E9', 'E10', 'E11', 'E12', 'E13'] as const;
const MAX_ID = 200;

const time = v.pipe(v.number(), v.finite(), v.minValue(MIN_TIME), v.maxValue(MAX_TIME));
const id = v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_ID));
const text = v.pipe(
  v.string(),
  v.check((s) => s.trim() !== '', 'A memory needs some text.'),
);
const tagList = v.pipe(v.array(v.pipe(v.string(), v.maxLength(MAX_TAG_LENGTH))), v.maxLength(MAX_TAGS));

/**
 * A memory row. Loose: fields this version does not know (added by a later schema) are kept as
 * they are, so a backup from a newer app loses nothing it can carry.
 */
export const MemorySchema = v.pipe(
  v.looseObject({
    id,
    text,
    tags: tagList,
    suggestedTags: tagList,
    importance: v.pipe(v.number(), v.minValue(0), v.maxValue(1)),
    source: v.optional(v.pipe(v.string(), v.maxLength(MAX_SOURCE_LENGTH))),
    createdAt: time,
    updatedAt: time,
    validFrom: time,
    validTo: v.nullable(time),
    sessionId: id,
    status: v.picklist(['active', 'quarantined', 'archived']),
    deletedAt: v.nullable(time),
    media: v.optional(
      v.array(
        v.strictObject({
          caption: v.optional(v.string()),
          alt: v.optional(v.string()),
          mime: v.optional(v.string()),
          /** Since backup version 2: the picture (`images`) this entry shows. */
          imageId: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_ID))),
        }),
      ),
    ),
    embedTruncated: v.boolean(),
    /** Since schema v5: the dedupe key of the draft an imported memory came from. */
    importKey: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_ID))),
  }),
  v.check((m) => m.validTo === null || m.validTo >= m.validFrom, 'validTo must not be before validFrom.'),
);

export const VersionSchema = v.looseObject({ id, memoryId: id });

export const LinkSchema = v.strictObject({ fromId: id, toId: id, kind: v.picklist(['wikilink']) });

export const FeedbackSchema = v.strictObject({
  id,
  memoryId: id,
  kind: v.picklist(['reinforce', 'suppress']),
  valence: v.optional(v.pipe(v.number(), v.finite(), v.minValue(-100), v.maxValue(100))),
  reason: v.optional(v.pipe(v.string(), v.maxLength(2000))),
  at: time,
  mode: v.optional(v.picklist(['standard', 'lateral', 'associative'])),
});

export const SettingSchema = v.strictObject({
  key: v.pipe(v.string(), v.minLength(1), v.maxLength(MAX_ID)),
  value: v.unknown(),
});

export const VectorSchema = v.strictObject({
  memoryId: id,
  space: v.picklist(SPACES),
  dim: v.pipe(v.number(), v.integer(), v.minValue(0)),
  dtype: v.picklist(['float32', 'space']),
  model: v.pipe(v.string(), v.maxLength(MAX_ID)),
  data: v.string(),
});

export const HeaderSchema = v.object({
  exportedAt: v.pipe(
    v.string(),
    v.check((s) => Number.isFinite(Date.parse(s)), 'exportedAt must be an ISO date.'),
  ),
  app: v.object({ name: v.string(), version: v.string() }),
});

/** "memories[3].createdAt: Invalid value ..." from the first issue valibot reports. */
export function describeIssues(prefix: string, issues: readonly v.BaseIssue<unknown>[]): { path: string; message: string } {
  const first = issues[0];
  const dot = first ? v.getDotPath(first) : null;
  const path = dot ? `${prefix}.${dot}` : prefix;
  // valibot quotes the value it received; a hostile 5 MB string must not become the message.
  const said = first?.message ?? 'invalid';
  return { path, message: `${path}: ${said.length > 200 ? `${said.slice(0, 200)}…` : said}` };
}
