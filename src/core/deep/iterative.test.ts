import { describe, expect, it } from 'vitest';
import type { QueryTransformer } from '../query';
import type { MemoryId } from '../types';
import { clampIterations, OfflineReader, searchIterative, type IterativeDeps, type RetrievedHit } from '.';

// memory texts; the reader grades by the query's content words the text shares
const TEXT: Record<MemoryId, string> = {
  m1: 'notes about the weather',
  m2: 'a grocery list',
  m3: 'the sunrise painting Caroline made',
  m4: 'lake trip with the kids',
  m5: 'Caroline painting class schedule',
};

function deps(lists: Record<string, RetrievedHit[]>, variants: string[] = [], calls: string[] = []): IterativeDeps {
  const transformer: QueryTransformer = { kind: 'offline', variants: async () => variants, hypothetical: async () => null };
  return {
    retrieve: (query, pass) => {
      calls.push(`${query}#${pass.expandHops}`);
      return lists[`${query}#${pass.expandHops}`] ?? [];
    },
    candidateOf: (id) => (TEXT[id] ? { id, text: TEXT[id], createdAt: 0 } : undefined),
    reader: new OfflineReader(),
    transformer,
    queryFeatures: {},
  };
}

const weak: RetrievedHit[] = [
  { id: 'm1', score: 0.1 },
  { id: 'm2', score: 0.09 },
];

describe('searchIterative (seed 001)', () => {
  it('maxIterations is clamped to [1, 5] (default 3)', () => {
    expect([undefined, 0, 1, 4.6, 9, Number.NaN].map(clampIterations)).toEqual([3, 1, 1, 5, 5, 3]);
  });

  it('an easy query returns pass 1 untouched (the gate)', async () => {
    const calls: string[] = [];
    // confidence 0.5 x 0.9 + 0.3 x (0.8 / 0.9) + 0.2 x 0.2 > 0.3, and m3 grades 2/2 words ("painting", "caroline")
    const out = await searchIterative('Caroline painting', deps({ 'Caroline painting#0': [{ id: 'm3', score: 0.9 }, { id: 'm1', score: 0.1 }] }, ['x'], calls));
    expect(out.hard).toBe(false);
    expect(out.stoppedBy).toBe('easy');
    expect(out.results.map((h) => [h.id, h.score])).toEqual([
      ['m3', 0.9],
      ['m1', 0.1],
    ]);
    expect(calls).toEqual(['Caroline painting#0']);
  });

  it('a hard query reformulates, grades what the pass adds and stops when it is good enough', async () => {
    const lists = { 'Caroline painting#0': weak, 'Caroline art#0': [{ id: 'm5', score: 0.5 }, { id: 'm1', score: 0.4 }] };
    const out = await searchIterative('Caroline painting', deps(lists, ['Caroline art']));
    expect(out.hard).toBe(true);
    expect(out.stoppedBy).toBe('good-enough');
    expect(out.passes.map((p) => p.text)).toEqual(['pass 1: searched "Caroline painting", 2 results, best grade 0.00', 'pass 2: reformulated as "Caroline art", added 1']);
    // m5 grades 1 (both words): 0.5 x 1 = 0.5 = m1's primary 0.5 x 1; ties by id
    expect(out.results.map((h) => h.id)).toEqual(['m1', 'm5', 'm2']);
    expect(out.abstained).toBe(false);
  });

  it('with no new variant it widens by one hop, once, then stops exhausted', async () => {
    const calls: string[] = [];
    const lists = { 'q lake#0': weak, 'q lake#1': [...weak, { id: 'm2', score: 0.05 }] };
    const out = await searchIterative('q lake', deps(lists, [], calls), { maxIterations: 5 });
    expect(calls).toEqual(['q lake#0', 'q lake#1']);
    expect(out.stoppedBy).toBe('exhausted');
    expect(out.passes[1].text).toBe('pass 2: widened by one hop over shared names, added 0');
  });

  it('abstains when nothing is good enough, and says so', async () => {
    const out = await searchIterative('volcano', deps({ 'volcano#0': weak }), { maxIterations: 1 });
    expect(out.stoppedBy).toBe('max-iterations');
    expect(out.abstained).toBe(true);
    expect(out.explanation.at(-1)).toBe('nothing good enough: the best grade 0.00 is below 0.2');
  });

  it('forceHard skips the gate; topK caps the accumulated results', async () => {
    const many = ['m1', 'm2', 'm3', 'm4', 'm5'].map((id, i) => ({ id, score: 1 - i / 10 }));
    const out = await searchIterative('Caroline painting', deps({ 'Caroline painting#0': many, 'x#0': [{ id: 'm5', score: 1 }] }, ['x']), { forceHard: true, topK: 3, maxIterations: 2 });
    expect(out.hard).toBe(true);
    expect(out.passes.length).toBe(2);
    expect(out.results.length).toBe(3);
  });

  it('the AbortSignal is honoured between passes', async () => {
    const signal = { aborted: false };
    const d = deps({ 'q#0': weak }, ['v1', 'v2']);
    const retrieve = d.retrieve;
    d.retrieve = (query, pass) => {
      const r = retrieve(query, pass);
      if (query === 'v1') signal.aborted = true;
      return r;
    };
    const out = await searchIterative('q', d, { signal, maxIterations: 5 });
    expect(out.stoppedBy).toBe('aborted');
    expect(out.passes.map((p) => p.action)).toEqual(['retrieve', 'reformulate']);
  });

  it('the AbortSignal is honoured inside a pass: a cancel during the rewording stops before the variant is searched', async () => {
    const signal = { aborted: false };
    const calls: string[] = [];
    const d = deps({ 'q#0': weak, 'v1#0': [{ id: 'm3', score: 0.5 }] }, [], calls);
    let seen: unknown;
    d.transformer = {
      kind: 'offline',
      variants: async (_q, _n, o) => {
        seen = o?.signal;
        signal.aborted = true; // the person typed again while the variants were being written
        return ['v1'];
      },
      hypothetical: async () => null,
    };
    const out = await searchIterative('q', d, { signal, forceHard: true, maxIterations: 5 });
    expect(seen).toBe(signal);
    expect(out.stoppedBy).toBe('aborted');
    expect(calls).toEqual(['q#0']);
    expect(out.passes.map((p) => p.action)).toEqual(['retrieve']);
  });
});
