import { describe, expect, it } from 'vitest';
import { adoptEngine, engineSnapshotProblem, packEngine, packEngineInSteps, type EngineSnapshot } from './engine-snapshot';
import { HybridIndex, type IndexDoc } from './hybrid';
import { CANDIDATE_SPACES, SpaceIndex } from './pipeline/space-index';
import { unitTokens } from './pipeline/unit-tokens';
import { cutAtArrays, joinParts, PackReader, PackWriter, streamChecksum } from './snapshot-pack';
import { SPACE_IDS, type SpaceFeatures } from './spaces';
import { seededFeatures } from '../testing/features';
import type { AppError } from './errors';

const DIM = 8;
const featuresOf = (n: number, salt = 0): SpaceFeatures => seededFeatures(n, salt, DIM);

const doc = (n: number, f: SpaceFeatures): IndexDoc => ({
  id: `m${String(n).padStart(4, '0')}`,
  text: `memory ${n} about ${['tulips', 'rust', 'coffee'][n % 3]}`,
  tags: [],
  importance: 0.5,
  createdAt: n,
  validFrom: 0,
  validTo: null,
  status: n % 7 === 0 ? 'archived' : 'active',
  vector: f.E1 ?? null,
});

interface Engine {
  hybrid: HybridIndex;
  spaces: SpaceIndex;
}
function build(items: [number, SpaceFeatures][]): Engine {
  const hybrid = new HybridIndex(DIM, {}, 'enc-a');
  const spaces = new SpaceIndex({ e1: (id) => hybrid.vectorOf(id) });
  for (const [n, f] of items) {
    hybrid.upsert(doc(n, f));
    spaces.upsert(doc(n, f).id, f);
  }
  return { hybrid, spaces };
}
function put(e: Engine, n: number, f: SpaceFeatures): void {
  e.hybrid.upsert(doc(n, f));
  e.spaces.upsert(doc(n, f).id, f);
}
function drop(e: Engine, n: number): void {
  const id = doc(n, {}).id;
  e.hybrid.remove(id);
  e.spaces.remove(id);
}
/** The adopted engine: its words as the original's (as the keyword snapshot gives them), the rest from the packed snapshot. */
function adopt(from: Engine, snap: EngineSnapshot, encoder = 'enc-a'): Engine {
  const hybrid = new HybridIndex(DIM, {}, encoder);
  from.hybrid.forEachDoc((d) => hybrid.upsert({ ...d, vector: null }));
  return { hybrid, spaces: adoptEngine(hybrid, snap, (id) => hybrid.vectorOf(id)) };
}

/** Everything a query reads: dense hits, every space's candidates, similarities and features of each id. */
function answers(e: Engine, probes: number[]) {
  const out: unknown[] = [];
  for (const p of probes) {
    const q = featuresOf(p, 99);
    out.push(e.hybrid.search({ text: 'tulips coffee', vector: q.E1! }, { topK: 8 }));
    out.push(e.spaces.candidates(q, 5));
    out.push(e.spaces.candidates(q, 5, { accept: (id) => id < 'm0030' }));
    const ids = e.hybrid.ids().sort();
    out.push(ids.map((id) => [id, e.spaces.similarities(q, id, [...CANDIDATE_SPACES, 'E12', 'E1'], unitTokens(q.E12!))]));
  }
  out.push(e.spaces.ids().sort().map((id) => [id, e.spaces.features(id)]));
  return JSON.parse(JSON.stringify(out, (_k, v: unknown) => (ArrayBuffer.isView(v) ? Array.from(v as Float32Array) : v)));
}

describe('the engine snapshot (pack / adopt)', () => {
  const items = Array.from({ length: 60 }, (_, n) => [n, featuresOf(n)] as [number, SpaceFeatures]);

  it('answers exactly as the packed engine and as a fresh build, after adds, edits and deletes on both sides', () => {
    const orig = build(items);
    // holes and reused slots before packing: deletes and an edit with other lengths
    for (const n of [3, 10, 11]) drop(orig, n);
    put(orig, 20, featuresOf(20, 5));
    const snap = packEngine(orig.hybrid, orig.spaces);
    const adopted = adopt(orig, snap);
    const live = items.filter(([n]) => ![3, 10, 11].includes(n)).map(([n, f]): [number, SpaceFeatures] => [n, n === 20 ? featuresOf(20, 5) : f]);
    const fresh = build(live);
    const probes = [1, 5, 42, 77];
    expect(answers(adopted, probes)).toEqual(answers(orig, probes));
    expect(answers(adopted, probes)).toEqual(answers(fresh, probes));
    expect(adopted.hybrid.vectors.size).toBe(57);
    // the same writes after adopting as after building
    for (const e of [adopted, fresh]) {
      put(e, 70, featuresOf(70));
      put(e, 5, featuresOf(5, 8));
      drop(e, 6);
      put(e, 3, featuresOf(3, 2));
    }
    expect(answers(adopted, probes)).toEqual(answers(fresh, probes));
  });

  it('packs the same bytes in one go, in parts of a row size and in steps', async () => {
    const orig = build(items.slice(0, 30));
    const whole = packEngine(orig.hybrid, orig.spaces);
    const parts = packEngine(orig.hybrid, orig.spaces, 4096);
    let pauses = 0;
    const stepped = await packEngineInSteps(orig.hybrid, orig.spaces, 4096, async () => void pauses++);
    expect(parts.spaces.bytes.length).toBeGreaterThan(1);
    expect(parts.spaces.bytes.every((p) => p.byteLength <= 4096)).toBe(true);
    expect([cutAtArrays(parts.spaces, 4096), cutAtArrays(parts.vectors, 4096)]).toEqual([true, true]);
    expect(parts.checksums).toEqual(whole.checksums);
    expect(Array.from(joinParts(parts.spaces.bytes))).toEqual(Array.from(whole.spaces.bytes[0]));
    expect(stepped.spaces.bytes.map((p) => Array.from(p))).toEqual(parts.spaces.bytes.map((p) => Array.from(p)));
    expect(stepped.vectors.bytes.map((p) => Array.from(p))).toEqual(parts.vectors.bytes.map((p) => Array.from(p)));
    expect(pauses).toBeGreaterThan(10);
    // adopted from the parts: the same answers as from the whole stream
    expect(answers(adopt(orig, parts), [1, 5])).toEqual(answers(adopt(orig, whole), [1, 5]));
  });

  it('drops rows of memories the index no longer holds', () => {
    const orig = build(items.slice(0, 10));
    const snap = packEngine(orig.hybrid, orig.spaces);
    const hybrid = new HybridIndex(DIM, {}, 'enc-a');
    orig.hybrid.forEachDoc((d, id) => id !== 'm0004' && hybrid.upsert({ ...d, vector: null }));
    adoptEngine(hybrid, snap, (id) => hybrid.vectorOf(id));
    expect(hybrid.vectors.size).toBe(9);
    expect(hybrid.vectorOf('m0004')).toBeUndefined();
    expect(Array.from(hybrid.vectorOf('m0005')!)).toEqual(Array.from(orig.hybrid.vectorOf('m0005')!));
  });

  it('refuses a damaged, truncated or other-format snapshot and another encoder, leaving no vectors', () => {
    const orig = build(items.slice(0, 20));
    const fresh = () => packEngine(orig.hybrid, orig.spaces);
    const code = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return `${(e as AppError).code}: ${(e as AppError).detail}`;
      }
      return 'adopted';
    };
    const flipped = fresh();
    flipped.spaces.bytes[0][100] ^= 1;
    expect(engineSnapshotProblem(flipped)).toBe('the spaces do not match their checksum');
    expect(code(() => adopt(orig, flipped))).toMatch(/^SNAPSHOT_INVALID: the spaces/);
    const v = fresh();
    const last = v.vectors.bytes[v.vectors.bytes.length - 1];
    last[last.length - 3] ^= 4;
    expect(code(() => adopt(orig, v))).toMatch(/^SNAPSHOT_INVALID: the vectors/);
    expect(code(() => adopt(orig, { ...fresh(), format: 99 }))).toMatch(/format 99/);
    // another encoder's vectors are never adopted
    const other = adopt(orig, fresh(), 'enc-a');
    expect(other.hybrid.vectors.size).toBe(20);
    const h = new HybridIndex(DIM, {}, 'enc-b');
    expect(code(() => adoptEngine(h, fresh(), () => undefined))).toMatch(/model "enc-a"/);
    expect(h.vectors.size).toBe(0);
    // structural damage behind a valid checksum (a slot out of range in an inverted list)
    const s = fresh();
    const r = new PackReader(s.spaces);
    const start = r.get('sp.post.E6.start', 'i32');
    r.get('sp.post.E6.pool', 'i32')[start[r.get('sp.post.E6.lists', 'i32')[0]]] = 1000;
    s.checksums.spaces = streamChecksum(s.spaces.bytes);
    expect(code(() => adopt(orig, s))).toMatch(/sp\.post\.E6: a slot out of range/);
    const l = fresh();
    new PackReader(l.spaces).get('sp.post.E7.lists', 'i32')[0] = 99999;
    l.checksums.spaces = streamChecksum(l.spaces.bytes);
    expect(code(() => adopt(orig, l))).toMatch(/sp\.post\.E7: a bad list for key/);
    // a truncated stream
    const t = fresh();
    t.spaces = { ...t.spaces, bytes: [t.spaces.bytes[0].slice(0, 64)] };
    t.checksums.spaces = streamChecksum(t.spaces.bytes);
    expect(code(() => adopt(orig, t))).toMatch(/SNAPSHOT_INVALID: sp\..* (runs past the end|is missing)/);
  });

  it('packs string lists and arrays by name, refusing a wrong kind or length', () => {
    const w = new PackWriter();
    w.putStrings('ids', ['a', 'bé', '']);
    w.put('x', Float64Array.of(1.5, -2));
    w.putStrings('none', []);
    const r = new PackReader(w.finish());
    expect(r.strings('ids')).toEqual(['a', 'bé', '']);
    expect(r.strings('none')).toEqual([]);
    expect(Array.from(r.get('x', 'f64'))).toEqual([1.5, -2]);
    expect(() => r.get('x', 'f32')).toThrow(expect.objectContaining({ code: 'SNAPSHOT_INVALID', detail: 'x is f64, not f32' }));
    expect(() => r.get('x', 'f64', 3)).toThrow(expect.objectContaining({ detail: 'x has 2 elements, not 3' }));
    expect(SPACE_IDS.length).toBe(13);
  });
});
