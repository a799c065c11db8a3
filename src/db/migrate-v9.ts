// The v8 -> v9 upgrade: every `vectors` row (one per memory and space) copied into packed blocks
// (src/db/feature-blocks.ts), byte for byte. Runs inside Dexie's upgrade transaction: a failure
// aborts it and the v8 store stays as it was. Rows are read in pages by primary key (memory id,
// then space), so memory stays bounded (one open block per space and producer, plus a page).

import type { Transaction } from 'dexie';
import type { MemoryId, SpaceId } from '../core/types';
import { BLOCK_SIZE, packBlock } from './feature-blocks';
import type { FeatureDataRow, FeatureHeadRow } from './schema';

const PAGE = 2048;

/** A v8 row's bytes, when they can be kept: an ArrayBuffer (or a view of one, copied). */
function bytesOf(data: unknown): ArrayBuffer | null {
  if (data instanceof ArrayBuffer) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength).slice().buffer;
  return null;
}

/** Copies `vectors` into `featureHeads` / `featureData`. Returns the rows copied and the rows that could not be read. */
export async function migrateVectorsToBlocks(tx: Transaction): Promise<{ copied: number; skipped: number }> {
  const vectors = tx.table('vectors');
  const heads = tx.table<FeatureHeadRow, string>('featureHeads');
  const datas = tx.table<FeatureDataRow, string>('featureData');
  const open = new Map<string, { space: SpaceId; model: string; n: number; entries: { id: MemoryId; data: ArrayBuffer }[] }>();
  let copied = 0;
  let skipped = 0;
  const flush = async (group: { space: SpaceId; model: string; n: number; entries: { id: MemoryId; data: ArrayBuffer }[] }) => {
    if (group.entries.length === 0) return;
    group.n += 1;
    const b = packBlock(group.space, group.model, group.n, group.entries);
    group.entries = [];
    await heads.add(b.head);
    await datas.add(b.data);
  };
  let after: unknown = undefined;
  for (;;) {
    const page = (after === undefined ? await vectors.orderBy(':id').limit(PAGE).toArray() : await vectors.where(':id').above(after).limit(PAGE).toArray()) as Record<string, unknown>[];
    if (page.length === 0) break;
    const last = page[page.length - 1];
    after = [last.memoryId, last.space];
    for (const row of page) {
      const data = bytesOf(row.data);
      // a pre-v4 'float32' row was rewritten by v4; one it could not read kept model '' (stale): kept as it is
      if (typeof row.memoryId !== 'string' || typeof row.space !== 'string' || data === null || row.dtype !== 'space') {
        skipped++;
        continue;
      }
      const model = typeof row.model === 'string' ? row.model : '';
      const k = `${row.space}|${model}`;
      const group = open.get(k) ?? { space: row.space as SpaceId, model, n: 0, entries: [] };
      open.set(k, group);
      group.entries.push({ id: row.memoryId, data });
      copied++;
      if (group.entries.length >= BLOCK_SIZE) await flush(group);
    }
  }
  for (const group of open.values()) await flush(group);
  return { copied, skipped };
}
