// Repository functions of an encoder switch (issue 8): the pending encoder's vectors are written
// beside the current ones (`pendingVectors`, schema v7), batch by batch, while search keeps using
// `vectors`; when every live memory has its pending vectors the flip moves them into `vectors`
// and records the new encoder in ONE transaction, so a reader sees either the old set or the new
// one, never a mix. Each function is one transaction; none awaits a worker.

import Dexie from 'dexie';
import { fnv1a } from '../core/features';
import type { MemoryId, SpaceId } from '../core/types';
import type { MnemographDb } from './db';
import { deleteFeatureSpaces, featureTables, putFeatureRows } from './feature-blocks';
import {
  ENCODER_SETTING,
  ENCODER_SWITCH_SETTING,
  type MemoryRow,
  type PendingVectorRow,
  type VectorRow,
} from './schema';

/**
 * What an encoder's vectors of a memory were computed from: its text and its media captions
 * (E1 and E5 read the text, E10 the captions). Length + two hashes: an edit changes it.
 */
export function encoderInputKey(m: Pick<MemoryRow, 'text' | 'media'>): string {
  const media = m.media?.length ? JSON.stringify(m.media) : '';
  return `${m.text.length}:${(fnv1a(m.text) >>> 0).toString(36)}:${(fnv1a(m.text, 0x9747b28c) >>> 0).toString(36)}:${(fnv1a(media) >>> 0).toString(36)}`;
}

/** The switch in progress, as stored (setting `encoderSwitch`): survives a reload. */
export interface EncoderSwitchRecord {
  from: string;
  to: string;
  state: 'running' | 'paused';
  startedAt: number;
}

export function readSwitchRecord(raw: unknown): EncoderSwitchRecord | null {
  const r = raw as Partial<EncoderSwitchRecord> | null | undefined;
  if (!r || typeof r.to !== 'string' || typeof r.from !== 'string' || (r.state !== 'running' && r.state !== 'paused')) return null;
  return { from: r.from, to: r.to, state: r.state, startedAt: typeof r.startedAt === 'number' ? r.startedAt : 0 };
}

/** Whether the stored encoder was recorded by the v7 upgrade (an older store), not chosen by the person. */
export function recordedByUpgrade(raw: unknown): boolean {
  return (raw as { recordedBy?: unknown } | null | undefined)?.recordedBy === 'upgrade';
}

/** The active encoder's id as stored (setting `encoder`), '' when unset (the default applies). */
export function readEncoderSetting(raw: unknown): string {
  const id = (raw as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' ? id : '';
}

/**
 * The encoder the store's vectors belong to (issue 8: the one path that moves a store to another
 * encoder is the switch, so the services start this one and search with it): setting `encoder`
 * when recorded (by a switch or the v7 upgrade); else the producer of most stored E1 vectors (the
 * block heads only), counted as found by an upgrade (not the person's choice, so the boot moves it
 * to the current default through a switch); '' for a store without vectors (the default applies).
 * Read only: nothing is recorded, so a store keeps being read the same way until a switch says
 * otherwise (and reading it never changes what an export holds). One transaction.
 */
export async function storeEncoder(db: MnemographDb): Promise<{ id: string; byUpgrade: boolean }> {
  try {
    return await db.transaction('r', [db.settings, ...featureTables(db)], async () => {
      const raw = (await db.settings.get(ENCODER_SETTING))?.value;
      const recorded = readEncoderSetting(raw);
      if (recorded) return { id: recorded, byUpgrade: recordedByUpgrade(raw) };
      const id = await mostE1Producer(db);
      return { id, byUpgrade: id !== '' };
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/**
 * `encoderOfRows` (schema.ts: the most, ties to the first by name) of every stored E1 entry's producer, counted from the block heads (each memory's
 * entry in a space sits in one block): no map of every memory to its producer, which took 150 ms
 * of the page's thread at 100k memories, before the engine could start (issue 13).
 */
async function mostE1Producer(db: MnemographDb): Promise<string> {
  const heads = await db.featureHeads.where('[space+model]').between(['E1', Dexie.minKey], ['E1', Dexie.maxKey]).toArray();
  const counts = new Map<string, number>();
  for (const h of heads) if (h.model) counts.set(h.model, (counts.get(h.model) ?? 0) + h.ids.length);
  let best = '';
  let n = 0;
  for (const [m, c] of [...counts].sort((a, b) => (a[0] < b[0] ? -1 : 1))) if (c > n) [best, n] = [m, c];
  return best;
}

/**
 * Records the store's encoder found from its vectors (as found by an upgrade) unless one is
 * recorded: for when another encoder runs (a fallback), whose captures would otherwise tip the
 * count of E1 producers. One transaction.
 */
export async function keepStoreEncoder(db: MnemographDb, id: string): Promise<void> {
  try {
    await db.transaction('rw', db.settings, async () => {
      if (readEncoderSetting((await db.settings.get(ENCODER_SETTING))?.value)) return;
      await db.settings.put({ key: ENCODER_SETTING, value: { id, recordedBy: 'upgrade' } });
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/**
 * Starts (or re-targets) a switch: pending rows of any other encoder are dropped and the record
 * written, together.
 */
export async function beginEncoderSwitch(db: MnemographDb, record: EncoderSwitchRecord): Promise<void> {
  try {
    await db.transaction('rw', db.pendingVectors, db.settings, async () => {
      await db.pendingVectors.filter((r) => r.model !== record.to).delete();
      await db.settings.put({ key: ENCODER_SWITCH_SETTING, value: record });
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/** Pause / resume: the record's state only. */
export async function setSwitchState(db: MnemographDb, state: EncoderSwitchRecord['state']): Promise<EncoderSwitchRecord | null> {
  try {
    return await db.transaction('rw', db.settings, async () => {
      const rec = readSwitchRecord((await db.settings.get(ENCODER_SWITCH_SETTING))?.value);
      if (!rec) return null;
      const next = { ...rec, state };
      await db.settings.put({ key: ENCODER_SWITCH_SETTING, value: next });
      return next;
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/** Cancel: every pending row and the record go; the current vectors were never touched. */
export async function abandonEncoderSwitch(db: MnemographDb): Promise<void> {
  try {
    await db.transaction('rw', db.pendingVectors, db.settings, async () => {
      await db.pendingVectors.clear();
      await db.settings.delete(ENCODER_SWITCH_SETTING);
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/** The live memories and which of them still need pending vectors of `to` (none, or stale). */
export async function pendingWork(db: MnemographDb, to: string): Promise<{ live: number; todo: MemoryRow[] }> {
  try {
    return await db.transaction('r', db.memories, db.pendingVectors, async () => {
      const live = (await db.memories.toArray()).filter((m) => m.deletedAt === null);
      const keys = new Map<MemoryId, string>();
      await db.pendingVectors
        .where('space')
        .equals('E1')
        .each((r) => {
          if (r.model === to) keys.set(r.memoryId, r.inputKey);
        });
      return { live: live.length, todo: live.filter((m) => keys.get(m.id) !== encoderInputKey(m)) };
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/**
 * Writes one batch of pending vectors: for each memory still live and still holding the text
 * they were computed from (`inputKey`), its earlier pending rows are replaced by `rows`.
 * Returns how many memories got theirs.
 */
export async function putPendingVectors(
  db: MnemographDb,
  items: { memoryId: MemoryId; inputKey: string; rows: VectorRow[] }[],
): Promise<number> {
  try {
    return await db.transaction('rw', db.memories, db.pendingVectors, async () => {
      const rows = await db.memories.bulkGet(items.map((i) => i.memoryId));
      const keep = items.filter((it, i) => {
        const m = rows[i];
        return !!m && m.deletedAt === null && encoderInputKey(m) === it.inputKey;
      });
      if (keep.length) {
        await db.pendingVectors.where('memoryId').anyOf(keep.map((k) => k.memoryId)).delete();
        await db.pendingVectors.bulkPut(keep.flatMap((k) => k.rows.map((r): PendingVectorRow => ({ ...r, inputKey: k.inputKey }))));
      }
      return keep.length;
    });
  } catch (e) {
    throw db.fail(e);
  }
}

/**
 * The flip, in one transaction: if every live memory has current pending vectors of `to`, each
 * live memory's rows in `spaces` (the encoder's) are replaced by its pending rows, the pending
 * table is emptied, `to` becomes the encoder and the switch record goes. Otherwise nothing
 * changes and `missing` says how many memories still need theirs (a capture or an edit came
 * in meanwhile).
 */
export async function flipEncoder(db: MnemographDb, to: string, spaces: readonly SpaceId[]): Promise<{ flipped: boolean; missing: number }> {
  try {
    return await db.transaction('rw', [db.memories, ...featureTables(db), db.pendingVectors, db.settings], async () => {
      const live = (await db.memories.toArray()).filter((m) => m.deletedAt === null);
      const pending = (await db.pendingVectors.toArray()).filter((r) => r.model === to);
      const e1 = new Map(pending.filter((r) => r.space === 'E1').map((r) => [r.memoryId, r.inputKey]));
      const missing = live.filter((m) => e1.get(m.id) !== encoderInputKey(m)).length;
      if (missing > 0) return { flipped: false, missing };
      const liveIds = new Set(live.map((m) => m.id));
      await deleteFeatureSpaces(
        db,
        live.map((m) => m.id),
        spaces,
      );
      await putFeatureRows(
        db,
        pending
          .filter((r) => liveIds.has(r.memoryId))
          .map(({ inputKey: _k, ...row }): VectorRow => row),
      );
      await db.pendingVectors.clear();
      await db.settings.put({ key: ENCODER_SETTING, value: { id: to } });
      await db.settings.delete(ENCODER_SWITCH_SETTING);
      return { flipped: true, missing: 0 };
    });
  } catch (e) {
    throw db.fail(e);
  }
}
