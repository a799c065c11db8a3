// A DenseStore packed into a PackWriter (the engine snapshot, issue 13) and back: its ids by
// slot, int8 codes, scales, error bounds and the unit f32 rows, as they are (no re-normalising or
// re-quantising at a start). Unpacking checks every length, that the ids are distinct and the
// scales and errors finite and non-negative, and refuses a store of another dimension or encoder.

import { isFiniteVector } from '../vector';
import { invalid, type PackReader, type PackWriter } from '../snapshot-pack';
import { DenseStore, type DenseStoreOptions } from './store';

export function packDenseStore(w: PackWriter, prefix: string, store: DenseStore): void {
  const p = store.parts();
  const n = store.size;
  w.meta[`${prefix}.dim`] = store.dim;
  w.meta[`${prefix}.encoder`] = store.encoder;
  w.meta[`${prefix}.floats`] = store.keepFloat;
  w.putStrings(`${prefix}.ids`, p.ids);
  w.put(`${prefix}.codes`, p.codes.subarray(0, n * store.stride));
  w.put(`${prefix}.scales`, p.scales.subarray(0, n));
  w.put(`${prefix}.errors`, p.errors.subarray(0, n));
  if (p.floats) w.put(`${prefix}.f32`, p.floats.subarray(0, n * store.dim));
}

/** Fills `into` (empty; its dimension, encoder and keepFloat must be the packed ones), or a new store. */
export function unpackDenseStore(r: PackReader, prefix: string, into?: DenseStore, opts: Partial<DenseStoreOptions> = {}): DenseStore {
  const dim = r.num(`${prefix}.dim`);
  const encoder = r.str(`${prefix}.encoder`);
  const keepFloat = r.meta[`${prefix}.floats`] === true;
  const store = into ?? new DenseStore({ ...opts, dim, encoder, keepFloat });
  if (store.dim !== dim) throw invalid(`${prefix}: vectors of ${dim} dimensions, the index expects ${store.dim}`);
  if (store.encoder !== encoder) throw invalid(`${prefix}: vectors of the model "${encoder}", the index holds "${store.encoder}"'s`);
  if (store.keepFloat !== keepFloat) throw invalid(`${prefix}: rows ${keepFloat ? 'with' : 'without'} floats`);
  const ids = r.strings(`${prefix}.ids`);
  const n = ids.length;
  if (new Set(ids).size !== n || ids.some((id) => id.length === 0)) throw invalid(`${prefix}: repeated or empty ids`);
  const codes = r.get(`${prefix}.codes`, 'i8', n * store.stride);
  const scales = r.get(`${prefix}.scales`, 'f32', n);
  const errors = r.get(`${prefix}.errors`, 'f32', n);
  // the floats (the largest array: 150 MB at 100k x 384) are kept by the store as read, not copied again
  const floats = keepFloat ? r.own(`${prefix}.f32`, 'f32', n * dim) : null;
  for (let i = 0; i < n; i++) if (!(scales[i] >= 0 && errors[i] >= 0 && scales[i] < Infinity && errors[i] < Infinity)) throw invalid(`${prefix}: a bad scale at slot ${i}`);
  if (floats && !isFiniteVector(floats)) throw invalid(`${prefix}: a value that is not a number`);
  store.adopt(ids, codes, scales, errors, floats, true);
  return store;
}
