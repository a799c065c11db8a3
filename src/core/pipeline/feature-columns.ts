// FeatureColumns: every memory's features in the space index, per space in a few large typed
// arrays indexed by slot (issue 13, engine memory at 100k), instead of one object and one to five
// typed arrays per memory and space.
//   dense (E1-E5, E8, E10)   one Ragged<Float32Array> per space
//   sparse (E6, E7, E13)     indices Ragged<Uint32Array> + values Ragged<Float32Array>
//   binary (E9)              Ragged<Uint8Array>
//   entity (E11)             entities, relations (Uint32), heads, tails (Float32) + triple count / dim per slot
//   tokens (E12)             ids into one TokenDict (each distinct int8 row once) per slot; a matrix
//                            that is not int8 steps, or of another width, kept whole in `oddTokens`
// `get(slot, space)` builds the value from views (valid until the next change: read at once);
// `copy(slot)` gives a memory's features as fresh arrays, the very values it was given (E12 as
// unpackTokens gives it: the same f32 values).

import { SPACES, type EntityFeatures, type SpaceFeatures, type SparseVector, type SpaceVector, type TokenMatrix } from '../spaces';
import type { SpaceId } from '../types';
import { nextCapacity, Ragged } from './ragged';
import { TokenDict, unitRowsInto } from './token-dict';
import { packTokens, unitMaxsim, unitTokens, type UnitTokens } from './unit-tokens';
import { kindOf } from '../spaces/serialize';
import { invalid, type PackReader, type PackWriter } from '../snapshot-pack';


// Module-level on purpose: a Ragged keeps its `make` for its life, and a closure made inside
// `unpack` kept that call's scope, with its PackReader and every part of the stream (issue 13: the
// E9 pool's `make` held a 100k snapshot's ~255 MiB of space rows beside the arrays copied out of
// them, +92 MiB in the engine).
const f32 = (n: number) => new Float32Array(n);
const u32 = (n: number) => new Uint32Array(n);
const u8 = (n: number) => new Uint8Array(n);

interface SparseCol {
  indices: Ragged<Uint32Array>;
  values: Ragged<Float32Array>;
}
interface EntityCol {
  entities: Ragged<Uint32Array>;
  relations: Ragged<Uint32Array>;
  heads: Ragged<Float32Array>;
  tails: Ragged<Float32Array>;
  /** Per slot: the triples' count and dimension. */
  shape: Int32Array;
}

export class FeatureColumns {
  private readonly dense = new Map<SpaceId, Ragged<Float32Array>>();
  private readonly sparse = new Map<SpaceId, SparseCol>();
  private readonly binary = new Map<SpaceId, Ragged<Uint8Array>>();
  private readonly entity = new Map<SpaceId, EntityCol>();
  private tokenIds = new Ragged<Uint32Array>(u32);
  private dict?: TokenDict;
  private readonly oddTokens = new Map<number, { m: TokenMatrix; unit: UnitTokens }>();
  /** A memory's E12 decoded for one similarity at a time (reused). */
  private scratch?: UnitTokens;

  /** Bytes of every pool (capacity), the token dictionary included (the odd matrices not). */
  get bytes(): number {
    let n = this.tokenIds.bytes + (this.dict?.bytes ?? 0);
    for (const r of this.dense.values()) n += r.bytes;
    for (const r of this.binary.values()) n += r.bytes;
    for (const c of this.sparse.values()) n += c.indices.bytes + c.values.bytes;
    for (const c of this.entity.values()) n += c.entities.bytes + c.relations.bytes + c.heads.bytes + c.tails.bytes + c.shape.byteLength;
    return n;
  }

  /** Stores `f` (every space present) in `slot`, which holds nothing. */
  set(slot: number, f: SpaceFeatures): void {
    for (const key of Object.keys(f) as SpaceId[]) {
      const v = f[key];
      if (v === undefined || !(key in SPACES)) continue;
      switch (kindOf(key)) {
        case 'dense':
          this.col(this.dense, key, () => new Ragged(f32)).set(slot, v as Float32Array);
          break;
        case 'binary':
          this.col(this.binary, key, () => new Ragged(u8)).set(slot, v as Uint8Array);
          break;
        case 'sparse': {
          const c = this.col(this.sparse, key, () => ({ indices: new Ragged(u32), values: new Ragged(f32) }));
          c.indices.set(slot, (v as SparseVector).indices);
          c.values.set(slot, (v as SparseVector).values);
          break;
        }
        case 'entity': {
          const c = this.col(this.entity, key, () => ({ entities: new Ragged(u32), relations: new Ragged(u32), heads: new Ragged(f32), tails: new Ragged(f32), shape: new Int32Array(0) }));
          const e = v as EntityFeatures;
          c.entities.set(slot, e.entities);
          c.relations.set(slot, e.triples.relations);
          c.heads.set(slot, e.triples.heads);
          c.tails.set(slot, e.triples.tails);
          if (2 * slot + 2 > c.shape.length) {
            const s = new Int32Array(nextCapacity(c.shape.length, 2 * slot + 2));
            s.set(c.shape);
            c.shape = s;
          }
          c.shape[2 * slot] = e.triples.count;
          c.shape[2 * slot + 1] = e.triples.dim;
          break;
        }
        case 'tokens':
          this.setTokens(slot, v as TokenMatrix);
          break;
      }
    }
  }

  delete(slot: number): void {
    for (const r of this.dense.values()) r.delete(slot);
    for (const r of this.binary.values()) r.delete(slot);
    for (const c of this.sparse.values()) {
      c.indices.delete(slot);
      c.values.delete(slot);
    }
    for (const c of this.entity.values()) for (const r of [c.entities, c.relations, c.heads, c.tails]) r.delete(slot);
    const ids = this.tokenIds.view(slot);
    if (ids && this.dict) for (let i = 0; i < ids.length; i++) this.dict.release(ids[i]);
    this.tokenIds.delete(slot);
    this.oddTokens.delete(slot);
  }

  /** Shrinks every pool to its live values (after a load: no growth slack). */
  trim(): void {
    for (const r of this.dense.values()) r.trim();
    for (const r of this.binary.values()) r.trim();
    for (const c of this.sparse.values()) for (const r of [c.indices, c.values]) r.trim();
    for (const c of this.entity.values()) for (const r of [c.entities, c.relations, c.heads, c.tails]) r.trim();
    this.tokenIds.trim();
  }

  /** The slot's value in `space` built on views (read it at once), undefined when absent. E12: see `maxsim`. */
  get(slot: number, space: SpaceId): SpaceVector | undefined {
    switch (kindOf(space)) {
      case 'dense':
        return this.dense.get(space)?.view(slot);
      case 'binary':
        return this.binary.get(space)?.view(slot);
      case 'sparse': {
        const c = this.sparse.get(space);
        const indices = c?.indices.view(slot);
        return indices && { indices, values: c!.values.view(slot)! };
      }
      case 'entity': {
        const c = this.entity.get(space);
        const entities = c?.entities.view(slot);
        if (!entities) return undefined;
        const triples = { count: c!.shape[2 * slot], dim: c!.shape[2 * slot + 1], relations: c!.relations.view(slot)!, heads: c!.heads.view(slot)!, tails: c!.tails.view(slot)! };
        return { entities, triples };
      }
      case 'tokens':
        return this.tokenMatrix(slot);
    }
  }

  /** The sparse / entity keys of `space` at `slot` (a view), for the inverted lists. */
  keys(slot: number, space: SpaceId): Uint32Array | undefined {
    return kindOf(space) === 'entity' ? this.entity.get(space)?.entities.view(slot) : this.sparse.get(space)?.indices.view(slot);
  }

  hasTokens(slot: number): boolean {
    return this.tokenIds.has(slot) || this.oddTokens.has(slot);
  }

  /** MaxSim of the query's unit tokens against the slot's E12 (undefined: the slot has none). */
  maxsim(q: UnitTokens, slot: number): number | undefined {
    const odd = this.oddTokens.get(slot);
    if (odd) return unitMaxsim(q, odd.unit);
    if (!this.tokenIds.has(slot)) return undefined;
    this.scratch = unitRowsInto(this.dict!, this.tokenIds.data(), this.tokenIds.offset(slot), this.tokenIds.length(slot), this.scratch);
    return unitMaxsim(q, this.scratch);
  }

  /** Every space the slot holds, as fresh arrays. */
  copy(slot: number, spaces: readonly SpaceId[]): SpaceFeatures {
    const out: Record<string, unknown> = {};
    for (const s of spaces) {
      const v = this.get(slot, s);
      if (v === undefined) continue;
      out[s] = s === 'E12' ? v : cloneValue(v);
    }
    return out as SpaceFeatures;
  }

  /** Into an engine snapshot (src/core/snapshot-pack.ts); SNAPSHOT_INVALID when a memory's E12 is held whole (`oddTokens`: not packed). */
  pack(w: PackWriter, name: string): void {
    if (this.oddTokens.size) throw invalid('token matrices of another width');
    w.meta[`${name}.spaces`] = [...this.dense.keys(), ...this.binary.keys(), ...this.sparse.keys(), ...this.entity.keys()].join(',');
    for (const [sp, r] of this.dense) r.pack(w, `${name}.${sp}`);
    for (const [sp, r] of this.binary) r.pack(w, `${name}.${sp}`);
    for (const [sp, c] of this.sparse) {
      c.indices.pack(w, `${name}.${sp}.i`);
      c.values.pack(w, `${name}.${sp}.v`);
    }
    for (const [sp, c] of this.entity) {
      for (const [k, r] of [['e', c.entities], ['r', c.relations], ['h', c.heads], ['t', c.tails]] as const) r.pack(w, `${name}.${sp}.${k}`);
      w.put(`${name}.${sp}.shape`, c.shape);
    }
    this.tokenIds.pack(w, `${name}.E12`);
    if (this.dict) this.dict.pack(w, `${name}.dict`);
  }

  /** Packed columns, checked (each range inside its pool, only `live` slots, token ids rows of the dictionary). */
  static unpack(r: PackReader, name: string, live: (slot: number) => boolean): FeatureColumns {
    const c = new FeatureColumns();
    const rag = <T extends Float32Array | Uint32Array | Uint8Array>(n: string, kind: 'f32' | 'u32' | 'u8', make: (k: number) => T) => Ragged.unpack(r, `${name}.${n}`, kind, make, live);
    for (const sp of r.str(`${name}.spaces`).split(',').filter(Boolean) as SpaceId[]) {
      if (!(sp in SPACES)) throw invalid(`${name}: an unknown space ${sp}`);
      const kind = kindOf(sp);
      if (kind === 'dense') c.dense.set(sp, rag(sp, 'f32', f32));
      else if (kind === 'binary') c.binary.set(sp, rag(sp, 'u8', u8));
      else if (kind === 'sparse') c.sparse.set(sp, { indices: rag(`${sp}.i`, 'u32', u32), values: rag(`${sp}.v`, 'f32', f32) });
      else if (kind === 'entity') {
        const e = { entities: rag(`${sp}.e`, 'u32', u32), relations: rag(`${sp}.r`, 'u32', u32), heads: rag(`${sp}.h`, 'f32', f32), tails: rag(`${sp}.t`, 'f32', f32), shape: r.get(`${name}.${sp}.shape`, 'i32') };
        for (let k = 0; k < e.entities.slotCount; k++) if (e.entities.has(k) && 2 * k + 1 >= e.shape.length) throw invalid(`${name}: ${sp} shapes missing`);
        c.entity.set(sp, e);
      } else throw invalid(`${name}: ${sp} is not a column`);
    }
    c.tokenIds = rag('E12', 'u32', u32);
    if (r.has(`${name}.dict.refs`)) c.dict = TokenDict.unpack(r, `${name}.dict`);
    const ids = c.tokenIds.data();
    for (let s = 0; s < c.tokenIds.slotCount; s++) {
      const at = c.tokenIds.offset(s);
      for (let i = at; i >= 0 && i < at + c.tokenIds.length(s); i++) if (!c.dict?.holds(ids[i])) throw invalid(`${name}: a token id the dictionary lacks`);
    }
    return c;
  }

  private tokenMatrix(slot: number): TokenMatrix | undefined {
    const odd = this.oddTokens.get(slot);
    if (odd) return { rows: odd.m.rows, dim: odd.m.dim, data: odd.m.data.slice() };
    const ids = this.tokenIds.view(slot);
    return ids && this.dict!.matrix(ids);
  }

  private setTokens(slot: number, m: TokenMatrix): void {
    const packed = packTokens(m);
    this.dict ??= packed ? new TokenDict(m.dim) : undefined;
    if (!packed || !this.dict || this.dict.dim !== m.dim) {
      this.oddTokens.set(slot, { m: { rows: m.rows, dim: m.dim, data: m.data.slice() }, unit: unitTokens(m) });
      return;
    }
    const ids = new Uint32Array(m.rows);
    for (let r = 0; r < m.rows; r++) ids[r] = this.dict.add(packed.q, r * m.dim);
    this.tokenIds.set(slot, ids);
  }

  private col<V>(map: Map<SpaceId, V>, key: SpaceId, make: () => V): V {
    let c = map.get(key);
    if (!c) map.set(key, (c = make()));
    return c;
  }
}

function cloneValue(v: SpaceVector): SpaceVector {
  if (ArrayBuffer.isView(v)) return (v as Float32Array).slice();
  if ('indices' in v) return { indices: v.indices.slice(), values: v.values.slice() };
  if ('entities' in v) {
    const t = v.triples;
    return { entities: v.entities.slice(), triples: { count: t.count, dim: t.dim, relations: t.relations.slice(), heads: t.heads.slice(), tails: t.tails.slice() } };
  }
  return v;
}
