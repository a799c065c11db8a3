// What the preview shows before anything is written, and what a restore can reuse. Pure: the
// services pass in what the database already holds (the stored import keys, the current
// producers' ids) and get back the plan; nothing here reads or writes storage.

import { AppError, MESSAGES } from '../core/errors';
import type { SpaceId } from '../core/types';
import type { VectorRecord } from './backup-schema';
import { dedupeKey } from './dedupe';
import type { ImportItem, ImportResult } from './result';

export interface PlannedItem extends ImportItem {
  /** dedupeKey(draft): store it with the memory so a re-run can skip it. */
  key: string;
}

export interface ImportPlan {
  /** Items to write, in file order, each once. */
  toWrite: PlannedItem[];
  /** Items whose key is already stored (a re-run of the same import). */
  alreadyThere: PlannedItem[];
  /** Later copies of an item earlier in the same file. */
  repeatedInFile: PlannedItem[];
  counts: { read: number; toWrite: number; alreadyThere: number; repeatedInFile: number; skipped: number; notes: number };
}

/** Splits an import's items into new ones and duplicates, by dedupeKey against `existingKeys`. */
export function planImport(result: ImportResult, existingKeys: ReadonlySet<string>): ImportPlan {
  const plan: ImportPlan = {
    toWrite: [],
    alreadyThere: [],
    repeatedInFile: [],
    counts: { read: result.items.length, toWrite: 0, alreadyThere: 0, repeatedInFile: 0, skipped: 0, notes: 0 },
  };
  const inFile = new Set<string>();
  for (const item of result.items) {
    const planned: PlannedItem = { ...item, key: dedupeKey(item.draft) };
    if (existingKeys.has(planned.key)) plan.alreadyThere.push(planned);
    else if (inFile.has(planned.key)) plan.repeatedInFile.push(planned);
    else {
      inFile.add(planned.key);
      plan.toWrite.push(planned);
    }
  }
  for (const e of result.errors) plan.counts[e.severity === 'skipped' ? 'skipped' : 'notes']++;
  plan.counts.toWrite = plan.toWrite.length;
  plan.counts.alreadyThere = plan.alreadyThere.length;
  plan.counts.repeatedInFile = plan.repeatedInFile.length;
  return plan;
}

/**
 * Stored vectors a restore can keep: those whose producer is the one this app runs for their
 * space (same encoder id for E1 / E5 / E10, same featurizer id for the others). The rest are
 * left for the backfill to recompute from the text; mixing producers would corrupt the ranking.
 */
export function reusableVectors(
  vectors: readonly VectorRecord[],
  currentProducer: (space: SpaceId) => string | undefined,
): { reuse: VectorRecord[]; recompute: VectorRecord[] } {
  const reuse: VectorRecord[] = [];
  const recompute: VectorRecord[] = [];
  for (const v of vectors) {
    const want = currentProducer(v.space);
    (want !== undefined && v.model === want && v.dtype === 'space' ? reuse : recompute).push(v);
  }
  return { reuse, recompute };
}

/** Items in batches of `size`, for one write transaction each (a crash leaves whole batches). */
export function batches<T>(items: readonly T[], size: number): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new AppError('INVALID_OPTION', MESSAGES.outOfRange('The batch size', 'a whole number above 0', size));
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
