// The full JSON backup: build (rows -> document), serialise, and parse (text -> rows, each row
// checked against its schema). Parsing never takes half a row: a row that fails is reported and
// skipped, and the vectors of a skipped memory go with it. A document of another format, or of a
// later version than this code reads, is refused as a whole with a message that says which.

import * as v from 'valibot';
import { AppError, MESSAGES } from '../core/errors';
import type { Memory } from '../core/types';
import { base64ToBytes, bytesToBase64 } from './base64';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  FeedbackSchema,
  HeaderSchema,
  LinkSchema,
  MemorySchema,
  SettingSchema,
  VectorSchema,
  VersionSchema,
  describeIssues,
  type BackupDocument,
  type BackupRows,
  type FeedbackRecord,
  type LinkRecord,
  type SettingRecord,
  type VectorRecord,
  type VersionRecord,
} from './backup-schema';
import { IMAGES_BACKUP_VERSION, imageEntries, imagesOf, type ImageRecord } from './backup-images';
import { problem, type ImportProblem } from './result';
import { decodeText, INVALID_UTF8_NOTE } from './text';

export interface BuildBackupOptions {
  app: { name: string; version: string };
  /** Epoch ms of the export (a test seam); now by default. */
  now?: number;
  /** Vectors make the file larger but spare re-embedding on restore with the same encoder. */
  includeVectors?: boolean;
}

const A_BACKUP = 'a Mnemograph backup';

/** True for a value JSON keeps as it is (what a setting must be to survive a backup). */
function isJsonValue(x: unknown, depth = 0): boolean {
  if (depth > 64) return false;
  if (x === null || typeof x === 'string' || typeof x === 'boolean') return true;
  if (typeof x === 'number') return Number.isFinite(x);
  if (Array.isArray(x)) return x.every((e) => isJsonValue(e, depth + 1));
  if (typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype)
    return Object.values(x as object).every((e) => e === undefined || isJsonValue(e, depth + 1));
  return false;
}

/**
 * The backup document for these rows. A setting that JSON cannot hold (a typed array, a class
 * instance, NaN) fails the export loudly rather than being written changed.
 */
export function buildBackup(rows: BackupRows, opts: BuildBackupOptions): BackupDocument {
  for (const s of rows.settings)
    if (!isJsonValue(s.value)) throw new AppError('INVALID_CONFIG', `The setting "${s.key}" cannot be written to a backup.`);
  const doc: BackupDocument = {
    format: BACKUP_FORMAT,
    // pictures need version 2; without any, version 1, which an older app still reads
    version: rows.images?.length ? IMAGES_BACKUP_VERSION : 1,
    exportedAt: new Date(opts.now ?? Date.now()).toISOString(),
    app: { name: opts.app.name, version: opts.app.version },
    memories: rows.memories,
    feedback: rows.feedback,
    settings: rows.settings,
  };
  if (rows.versions) doc.versions = rows.versions;
  if (rows.links?.length) doc.links = rows.links;
  if (rows.images?.length) doc.images = imageEntries(rows.images);
  if (opts.includeVectors && rows.vectors)
    doc.vectors = rows.vectors.map((r) => ({
      memoryId: r.memoryId,
      space: r.space,
      dim: r.dim,
      dtype: r.dtype,
      model: r.model,
      data: bytesToBase64(new Uint8Array(r.data)),
    }));
  return doc;
}

export function serializeBackup(doc: BackupDocument): string {
  return JSON.stringify(doc);
}

export interface BackupItems {
  memories: Memory[];
  versions: VersionRecord[];
  /** Links whose two ends are both memories of the backup. */
  links: LinkRecord[];
  feedback: FeedbackRecord[];
  settings: SettingRecord[];
  vectors: VectorRecord[];
  /** Pictures whose memory is restored (none in a version-1 backup). */
  images: ImageRecord[];
}

export interface BackupParseResult {
  /** False when the file is not a backup this code can read; then `items` are all empty. */
  ok: boolean;
  header?: { version: number; exportedAt: string; app: { name: string; version: string } };
  items: BackupItems;
  errors: ImportProblem[];
}

const empty = (): BackupItems => ({ memories: [], versions: [], links: [], feedback: [], settings: [], vectors: [], images: [] });

function refuse(why: string, errors: ImportProblem[] = []): BackupParseResult {
  return { ok: false, items: empty(), errors: [...errors, problem({ path: '' }, MESSAGES.notA(A_BACKUP, why))] };
}

interface Indexed<T> {
  value: T;
  index: number;
}

/** Each row of one section through its schema; duplicates by `key` after the first are skipped. */
function section<S extends v.GenericSchema>(
  name: string,
  raw: unknown,
  schema: S,
  key: (row: v.InferOutput<S>) => string,
  errors: ImportProblem[],
  required: boolean,
): Indexed<v.InferOutput<S>>[] {
  if (raw === undefined && !required) return [];
  if (!Array.isArray(raw)) {
    errors.push(problem({ path: name }, `${name} must be a list; the whole section was skipped.`));
    return [];
  }
  const out: Indexed<v.InferOutput<S>>[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < raw.length; i++) {
    const res = v.safeParse(schema, raw[i]);
    if (!res.success) {
      const { path, message } = describeIssues(`${name}[${i}]`, res.issues);
      errors.push(problem({ index: i, path }, message));
      continue;
    }
    const k = key(res.output);
    if (seen.has(k)) {
      errors.push(problem({ index: i, path: `${name}[${i}]` }, `${name}[${i}] repeats an earlier entry (${k.slice(0, 80)}); the first one was kept.`));
      continue;
    }
    seen.add(k);
    out.push({ value: res.output, index: i });
  }
  return out;
}

const values = <T>(rows: Indexed<T>[]): T[] => rows.map((r) => r.value);

/** Decoded vectors, each kept only when its memory was taken and its bytes match its dim. */
function vectorsOf(raw: unknown, memoryIds: Set<string>, errors: ImportProblem[]): VectorRecord[] {
  const out: VectorRecord[] = [];
  for (const { value: e, index: i } of section('vectors', raw, VectorSchema, (r) => `${r.memoryId}/${r.space}`, errors, false)) {
    const where = { index: i, path: `vectors[${i}]` };
    if (!memoryIds.has(e.memoryId)) {
      errors.push(problem(where, `vectors[${i}] belongs to a memory that is not restored (${e.memoryId.slice(0, 80)}); skipped.`));
      continue;
    }
    const bytes = base64ToBytes(e.data);
    const want = e.dtype === 'float32' ? e.dim * 4 : e.dim;
    if (!bytes || bytes.byteLength !== want) {
      errors.push(problem(where, `vectors[${i}].data is not ${want} bytes of base64; skipped (it will be recomputed).`));
      continue;
    }
    out.push({ ...e, data: bytes.buffer as ArrayBuffer });
  }
  return out;
}

/** Links (schema v5), each kept only when both its memories were taken. */
function linksOf(raw: unknown, memoryIds: Set<string>, errors: ImportProblem[]): LinkRecord[] {
  const out: LinkRecord[] = [];
  for (const { value: l, index: i } of section('links', raw, LinkSchema, (r) => `${r.fromId}/${r.toId}`, errors, false)) {
    if (memoryIds.has(l.fromId) && memoryIds.has(l.toId)) out.push(l);
    else errors.push(problem({ index: i, path: `links[${i}]` }, `links[${i}] joins a memory that is not restored; skipped.`));
  }
  return out;
}

/**
 * Reads a backup. `ok` false (nothing taken) when the text is not JSON, not a Mnemograph backup,
 * or of a version this code cannot read. Otherwise every valid row is returned and every invalid
 * one is in `errors` with its path ("memories[3].createdAt: ...").
 */
export function parseBackup(input: string | Uint8Array): BackupParseResult {
  const decoded = decodeText(input);
  if (decoded.invalidUtf8) return refuse('the file is not UTF-8 text', [problem({ path: '' }, INVALID_UTF8_NOTE, 'note')]);
  let doc: unknown;
  try {
    doc = JSON.parse(decoded.text);
  } catch (e) {
    return refuse(`it is not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return refuse('it is not a JSON object');
  const d = doc as Record<string, unknown>;
  if (d.format !== BACKUP_FORMAT) return refuse(`its format is ${JSON.stringify(d.format ?? null).slice(0, 60)}, not "${BACKUP_FORMAT}"`);
  if (typeof d.version !== 'number' || !Number.isInteger(d.version) || d.version < 1)
    return refuse(`its version (${String(d.version).slice(0, 20)}) is not a backup version`);
  if (d.version > BACKUP_VERSION) {
    // it IS a Mnemograph backup: "not a Mnemograph backup: made by a newer Mnemograph" contradicted itself
    const why = `This backup was made by a newer Mnemograph (backup version ${d.version}; this app reads version ${BACKUP_VERSION}). Update the app, then restore it. Nothing was imported.`;
    return { ok: false, items: empty(), errors: [problem({ path: '' }, why)] };
  }
  const head = v.safeParse(HeaderSchema, d);
  if (!head.success) return refuse(describeIssues('header', head.issues).message);

  const errors: ImportProblem[] = [];
  const memories = values(section('memories', d.memories, MemorySchema, (m) => m.id, errors, true)) as Memory[];
  const ids = new Set(memories.map((m) => m.id));
  const items: BackupItems = {
    memories,
    versions: values(section('versions', d.versions, VersionSchema, (r) => r.id, errors, false)) as VersionRecord[],
    links: linksOf(d.links, ids, errors),
    feedback: values(section('feedback', d.feedback, FeedbackSchema, (r) => r.id, errors, true)),
    settings: values(section('settings', d.settings, SettingSchema, (r) => r.key, errors, true)),
    vectors: vectorsOf(d.vectors, ids, errors),
    // a version-1 backup has no pictures (an `images` key there is not ours: ignored)
    images: d.version >= IMAGES_BACKUP_VERSION ? imagesOf(d.images, ids, errors) : [],
  };
  const header = { version: d.version, exportedAt: head.output.exportedAt, app: head.output.app };
  return { ok: true, header, items, errors };
}
