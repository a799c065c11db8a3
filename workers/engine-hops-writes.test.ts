import { describe, expect, it } from 'vitest';
import { EngineCore } from './engine-core';
import { serializeSpace } from '../src/core/spaces';
import type { EngineDoc } from '../src/protocol/engine';
import { seededUniform } from '../src/core/features/hash';

/** Seeded numbers in [-0.5, 0.5) (mulberry32, the core's own). */
function rng(seed: number): () => number {
  const next = seededUniform(seed);
  return () => next() - 0.5;
}

const DIM = 8;
const r = rng(21);
const centres = Array.from({ length: 4 }, () => Array.from({ length: DIM }, () => r()));
const vec = (c: number) => centres[c % 4].map((x) => x + 0.3 * r());
function doc(id: string, c: number, session: string, tags: string[] = [], v = vec(c)): EngineDoc & { v: number[] } {
  return { id, text: `note ${id} topic${c % 4}`, tags, importance: 0.5, createdAt: 1, validFrom: 1, validTo: null, status: 'active', sessionId: session, features: { E1: serializeSpace('E1', new Float32Array(v)) }, v };
}
const clone = (d: EngineDoc & { v: number[] }): EngineDoc => ({ ...d, features: { E1: serializeSpace('E1', new Float32Array(d.v)) } });

describe('EngineCore: associative hops after writes (the matrix and its lists kept in step)', () => {
  it('answers as an engine loaded afresh with the same memories, after captures, edits, tag changes and deletes', async () => {
    const docs = new Map<string, EngineDoc & { v: number[] }>();
    for (let i = 0; i < 60; i++) docs.set(`m${String(i).padStart(2, '0')}`, doc(`m${String(i).padStart(2, '0')}`, i, `s${i % 3}`));
    const core = new EngineCore();
    core.load([...docs.values()].map(clone), { dim: DIM });
    const opts = { topK: 15, assocHops: 3, beamWidth: 2, minCosine: 0.3 };
    const ask = async (c: EngineCore, q: number) =>
      (await c.recall({ text: `topic${q}`, features: { E1: serializeSpace('E1', new Float32Array(centres[q])) }, now: 10 }, opts)).results.map((x) => [x.id, x.mode, x.score.toFixed(12), x.chain?.map((l) => l.id).join('>')]);
    const check = async () => {
      const fresh = new EngineCore();
      fresh.load([...docs.values()].map(clone), { dim: DIM });
      for (let q = 0; q < 4; q++) expect(await ask(core, q)).toEqual(await ask(fresh, q));
    };
    await check(); // the lists and the matrix built
    const write = (d: EngineDoc & { v: number[] }) => {
      docs.set(d.id, d);
      core.upsert(clone(d));
    };
    write(doc('new1', 1, 's1')); // a capture
    await check();
    write(doc('m05', 2, 's9')); // an edit: another vector, another session
    await check();
    write({ ...docs.get('m07')!, tags: ['t'] }); // a tag change: the same vector
    await check();
    core.removeMany(['m10', 'm11', 'new1']);
    for (const id of ['m10', 'm11', 'new1']) docs.delete(id);
    await check();
    const assoc = (await ask(core, 1)).filter((x) => x[1] === 'associative');
    expect(assoc.length).toBeGreaterThan(0);
  });
});
