// Input validation for new and edited memories. Pure: returns normalised values or throws AppError.
// The text is never cut: a multi-megabyte paste is stored whole; only the encoder sees a prefix.

import { AppError } from './errors';
import type { MediaRef, MemoryStatus } from './types';

export const MAX_TAG_LENGTH = 64;
export const MAX_TAGS = 64;
export const MAX_SOURCE_LENGTH = 512;
export const DEFAULT_IMPORTANCE = 0.5;

export interface NewMemoryInput {
  text: string;
  /** "a, b" or ['a', 'b']; normalised (lowercase, spaces -> '-', deduplicated). */
  tags?: string | string[];
  /** 0..1, default 0.5. */
  importance?: number;
  source?: string;
  media?: MediaRef[];
  /** Valid-time interval (epoch ms); defaults: from now, open-ended. */
  validFrom?: number;
  validTo?: number | null;
  /** Only for imports; the app's current session otherwise. */
  sessionId?: string;
  /** Only for imports of past memories (epoch ms); defaults to now. */
  createdAt?: number;
}

export interface ValidMemoryInput {
  text: string;
  tags: string[];
  importance: number;
  source?: string;
  media?: MediaRef[];
  validFrom?: number;
  validTo: number | null;
  sessionId?: string;
  createdAt?: number;
}

/**
 * One tag: trimmed, a leading '#' (or several) dropped (people type "#health" and the app shows
 * tags as "#health": stored with it, it showed "##health", and "#" alone became a tag), lowercased,
 * inner whitespace runs -> '-', cut to MAX_TAG_LENGTH. '' = drop.
 */
export function normaliseTag(raw: string): string {
  return raw
    .trim()
    .replace(/^#+\s*/, '')
    .toLowerCase()
    .replace(/\s+/g, '-')
    .slice(0, MAX_TAG_LENGTH)
    .replace(/-+$/, ''); // a cut may leave a trailing dash
}

/** Tags from "a, b" or ['a', 'b']: normalised, empties dropped, first occurrence kept. */
export function normaliseTags(input: string | readonly string[] | undefined | null): string[] {
  if (input == null) return [];
  let parts: unknown[];
  if (typeof input === 'string') parts = input.split(',');
  else if (Array.isArray(input)) parts = input.flatMap((t) => (typeof t === 'string' ? t.split(',') : [t]));
  else throw new AppError('INVALID_OPTION', 'Tags must be a comma-separated string or a list of strings.');
  const out: string[] = [];
  const seen = new Set<string>();
  for (const p of parts) {
    if (typeof p !== 'string') throw new AppError('INVALID_OPTION', 'Every tag must be text.');
    const t = normaliseTag(p);
    if (t && !seen.has(t)) {
      seen.add(t);
      out.push(t);
    }
  }
  if (out.length > MAX_TAGS) throw new AppError('INVALID_OPTION', `A memory can have at most ${MAX_TAGS} tags.`);
  return out;
}

export function validateText(text: unknown): string {
  if (typeof text !== 'string' || text.trim() === '') throw new AppError('EMPTY_TEXT');
  return text; // kept as typed (no trimming inside): the person's words, whole
}

export function validateImportance(v: unknown): number {
  if (v === undefined || v === null) return DEFAULT_IMPORTANCE;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v > 1) throw new AppError('INVALID_IMPORTANCE');
  return v;
}

function validateTime(v: unknown, name: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) throw new AppError('INVALID_OPTION', `${name} must be a time in epoch milliseconds.`);
  return v;
}

function validateSource(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new AppError('INVALID_OPTION', 'The source must be text.');
  const s = v.trim();
  if (s.length > MAX_SOURCE_LENGTH) throw new AppError('INVALID_OPTION', `The source must be at most ${MAX_SOURCE_LENGTH} characters.`);
  return s || undefined;
}

function validateMedia(v: unknown): MediaRef[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw new AppError('INVALID_OPTION', 'Media must be a list.');
  return v.map((m) => {
    if (typeof m !== 'object' || m === null) throw new AppError('INVALID_OPTION', 'Each media item must be an object.');
    const r = m as Record<string, unknown>;
    const out: MediaRef = {};
    for (const k of ['caption', 'alt', 'mime', 'imageId'] as const) {
      if (r[k] === undefined) continue;
      if (typeof r[k] !== 'string') throw new AppError('INVALID_OPTION', `Media ${k} must be text.`);
      out[k] = r[k] as string;
    }
    return out;
  });
}

export function validateNewMemory(input: unknown): ValidMemoryInput {
  if (typeof input !== 'object' || input === null) throw new AppError('EMPTY_TEXT');
  const i = input as Record<string, unknown>;
  const text = validateText(i.text);
  const validFrom = i.validFrom === undefined ? undefined : validateTime(i.validFrom, 'validFrom');
  const validTo = i.validTo === undefined || i.validTo === null ? null : validateTime(i.validTo, 'validTo');
  if (validFrom !== undefined && validTo !== null && validTo < validFrom)
    throw new AppError('INVALID_OPTION', 'validTo must not be before validFrom.');
  let sessionId: string | undefined;
  if (i.sessionId !== undefined) {
    if (typeof i.sessionId !== 'string' || !i.sessionId.trim()) throw new AppError('INVALID_OPTION', 'sessionId must be non-empty text.');
    sessionId = i.sessionId;
  }
  const createdAt = i.createdAt === undefined ? undefined : validateTime(i.createdAt, 'createdAt');
  return {
    text,
    createdAt,
    tags: normaliseTags(i.tags as string | string[] | undefined),
    importance: validateImportance(i.importance),
    source: validateSource(i.source),
    media: validateMedia(i.media),
    validFrom,
    validTo,
    sessionId,
  };
}

export interface MemoryPatch {
  text?: string;
  tags?: string | string[];
  importance?: number;
  source?: string;
  media?: MediaRef[];
  createdAt?: number;
  validFrom?: number;
  validTo?: number | null;
}

/** Validates only the fields present; returns them normalised. */
export function validateMemoryPatch(patch: unknown): {
  text?: string;
  tags?: string[];
  importance?: number;
  source?: string;
  media?: MediaRef[];
  createdAt?: number;
  validFrom?: number;
  validTo?: number | null;
} {
  if (typeof patch !== 'object' || patch === null) throw new AppError('INVALID_OPTION', 'Nothing to update.');
  const p = patch as Record<string, unknown>;
  const out: ReturnType<typeof validateMemoryPatch> = {};
  if ('text' in p) out.text = validateText(p.text);
  if ('tags' in p) out.tags = normaliseTags(p.tags as string | string[]);
  if ('importance' in p) {
    if (p.importance === undefined || p.importance === null) throw new AppError('INVALID_IMPORTANCE');
    out.importance = validateImportance(p.importance);
  }
  if ('source' in p) out.source = validateSource(p.source);
  if ('media' in p) out.media = validateMedia(p.media);
  if ('createdAt' in p) out.createdAt = validateTime(p.createdAt, 'When it happened (createdAt)');
  if ('validFrom' in p) out.validFrom = validateTime(p.validFrom, 'validFrom');
  if (out.validFrom !== undefined && 'validTo' in p && p.validTo !== null && typeof p.validTo === 'number' && p.validTo < out.validFrom)
    throw new AppError('INVALID_OPTION', 'validTo must not be before validFrom.');
  if ('validTo' in p) out.validTo = p.validTo === null ? null : validateTime(p.validTo, 'validTo');
  return out;
}

const STATUSES: readonly MemoryStatus[] = ['active', 'quarantined', 'archived'];

export function validateStatus(s: unknown): MemoryStatus {
  if (typeof s !== 'string' || !STATUSES.includes(s as MemoryStatus))
    throw new AppError('INVALID_OPTION', 'Status must be active, quarantined or archived.');
  return s as MemoryStatus;
}
