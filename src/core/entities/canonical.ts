// Canonical entity nodes from the mentions the E11 featurizer finds (wink NER + the
// capitalised-phrase heuristic, src/features/ner.ts). One node per canonical key: the key is the
// E11 normalisation (normalizeEntity: lowercase, inner whitespace collapsed, a leading "the" and a
// trailing possessive dropped), so the node's hash is exactly the id E11 stores for the memory and
// the engine's memory-entity graph (built from E11) and the database's entity rows name the same
// nodes. Aliases are the distinct surface spellings seen ("The Golden Gate Bridge", "Golden Gate
// bridge"), the mention count is the number of (memory, entity) pairs.

import { fnv1a, normalizeEntity, type EntityMention } from '../features';
import type { MemoryId } from '../types';

/** The canonical key of a mention's text ('' = not an entity). */
export function canonicalEntityKey(text: string): string {
  return normalizeEntity(text);
}

/** The node id of a canonical key: the 32-bit hash E11 stores for it. */
export function entityHash(key: string): number {
  return fnv1a(key);
}

/** One (memory, entity) pair as stored: the memory mentions the entity, under this spelling. */
export interface EntityMentionRow {
  memoryId: MemoryId;
  /** Canonical key (canonicalEntityKey). */
  entityKey: string;
  /** entityHash(entityKey): the E11 / engine graph id. */
  hash: number;
  /** The spelling in this memory (first one when it appears several times). */
  surface: string;
  /** NER type (NAME, DATE, MONEY, ...). */
  type: string;
}

/** A canonical entity node as stored. */
export interface EntityNode {
  key: string;
  hash: number;
  /** The most frequent spelling (ties: the first seen), shown as the node's label. */
  name: string;
  /** Every distinct spelling, most frequent first (ties alphabetical). */
  aliases: string[];
  type: string;
  /** Memories mentioning it. */
  mentionCount: number;
}

const MAX_SURFACE = 120;

/** The mention rows of one memory: one per canonical key, first spelling wins; empty keys dropped. */
export function mentionRows(memoryId: MemoryId, mentions: readonly EntityMention[]): EntityMentionRow[] {
  const out = new Map<string, EntityMentionRow>();
  for (const m of mentions) {
    const key = canonicalEntityKey(m.text);
    if (!key || key.length > MAX_SURFACE || out.has(key)) continue;
    out.set(key, { memoryId, entityKey: key, hash: entityHash(key), surface: m.text.trim().slice(0, MAX_SURFACE), type: m.type });
  }
  return [...out.values()];
}

/**
 * The node of `key` from all of its mention rows (any order); undefined when there are none
 * (the node is removed with its last mention). Deterministic: the rows are counted, not ordered.
 */
export function entityNodeOf(key: string, rows: readonly EntityMentionRow[]): EntityNode | undefined {
  const mine = rows.filter((r) => r.entityKey === key);
  return entityNodeOfCounts(key, { ...mentionCounts(mine), rows: new Set(mine.map((r) => r.memoryId)).size });
}

/**
 * A node's tallies over its mention rows: how many use each spelling and each type, and how many
 * rows there are (one per memory: a memory mentions an entity once). Kept with the stored node, so
 * a write adjusts them by its own rows instead of re-reading every mention of a common entity.
 */
export interface MentionCounts {
  spellings: [string, number][];
  types: [string, number][];
  rows: number;
}

/** The tallies of some mention rows (all of one key). */
export function mentionCounts(rows: readonly EntityMentionRow[]): MentionCounts {
  return addMentionCounts({ spellings: [], types: [], rows: 0 }, rows, 1);
}

/** `counts` with `rows` added (sign 1) or taken out (sign -1); entries that reach 0 are dropped. */
export function addMentionCounts(counts: MentionCounts, rows: readonly EntityMentionRow[], sign: 1 | -1): MentionCounts {
  const spellings = new Map(counts.spellings);
  const types = new Map(counts.types);
  const bump = (m: Map<string, number>, k: string) => {
    const n = (m.get(k) ?? 0) + sign;
    if (n > 0) m.set(k, n);
    else m.delete(k);
  };
  for (const r of rows) {
    bump(spellings, r.surface);
    bump(types, r.type);
  }
  return { spellings: [...spellings], types: [...types], rows: Math.max(0, counts.rows + sign * rows.length) };
}

/** The node of `key` from its tallies; undefined when no mention is left. Same node as entityNodeOf over the rows. */
export function entityNodeOfCounts(key: string, counts: MentionCounts): EntityNode | undefined {
  if (counts.rows === 0) return undefined;
  const byCount = (m: readonly [string, number][]) =>
    [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([s]) => s);
  const aliases = byCount(counts.spellings);
  return { key, hash: entityHash(key), name: aliases[0], aliases, type: byCount(counts.types)[0], mentionCount: counts.rows };
}
