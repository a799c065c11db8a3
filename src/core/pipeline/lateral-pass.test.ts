// lateralPass keeps only the memories that can come out (pooled, or sharing a query tag) and counts
// the derived profile's specificity in its own pass: the results must equal the dual-heap pass over
// every recallable memory, as it ran before issue 13.
import { describe, expect, it } from 'vitest';
import {
  buildNeighbourMatrix,
  deriveQueryTags,
  FeedbackState,
  l2FromCosine,
  normalised,
  rowDot,
  QUERY_TAG_SOURCE_RESULTS,
  recallWithLateral,
  recencyDecay,
  resolveRecallOptions,
  type LateralCandidate,
  type RecallDoc,
} from '../recall';
import { isRecallable } from '../status';
import type { MatchExplanation } from '../types';
import { lateralPass } from './lateral-pass';
import { MemoryTable, memoryTable } from './memory-table';
import type { PooledHit } from './standard';
import { isShadowed } from './temporal';

const TAGS = ['garden', 'code', 'music', 'travel', 'books', 'family'];
const NOW = Date.UTC(2026, 0, 1);

function world(seed: number, size = 120, dim = 4) {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
  const docs = new Map<string, RecallDoc>();
  const vectors = new Map<string, Float32Array>();
  for (let i = 0; i < size; i++) {
    const id = `m${String(i).padStart(3, '0')}`;
    const pick = () => TAGS[Math.floor(rand() * TAGS.length)];
    docs.set(id, {
      tags: [...new Set([pick(), ...(rand() < 0.5 ? [pick()] : [])])],
      ...(rand() < 0.3 ? { suggestedTags: [pick()] } : {}),
      importance: Math.round(rand() * 10) / 10,
      status: rand() < 0.1 ? 'archived' : 'active',
      createdAt: NOW - Math.floor(rand() * 200) * 86_400_000,
      ...(rand() < 0.05 ? { deletedAt: NOW } : {}),
      ...(i > 5 && rand() < 0.05 ? { supersededBy: `m${String(i - 1).padStart(3, '0')}` } : {}),
    });
    vectors.set(id, Float32Array.from({ length: dim }, () => rand() - 0.5));
  }
  const why = (bm25: number): MatchExplanation => ({ lexical: 0, semantic: 0, bm25, cosine: 0, matchedTerms: [] });
  const pool: PooledHit[] = [...docs.keys()]
    .filter((id) => rand() < 0.2 && isRecallable(docs.get(id), {}))
    .map((id) => ({ id, score: Math.round(rand() * 100) / 100, mode: 'standard' as const, why: why(rand() < 0.5 ? 1 : 0) }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
  const q = Float32Array.from({ length: dim }, () => rand() - 0.5);
  return { docs, vectors, pool, q };
}

describe('lateralPass over the memories that can come out', () => {
  it('equals the dual-heap pass over every recallable memory (derived and explicit tags, feedback)', () => {
    let laterals = 0;
    for (let seed = 1; seed <= 30; seed++) {
      const { docs, vectors, pool, q } = world(seed);
      const matrix = buildNeighbourMatrix(docs.keys(), (id) => vectors.get(id));
      const docOf = (id: string) => docs.get(id);
      const feedback = new FeedbackState();
      for (const { id } of pool.slice(0, 2)) feedback.record(seed % 2 ? { kind: 'suppress', id, at: NOW } : { kind: 'reinforce', id, valence: 1, at: NOW });
      const o = resolveRecallOptions({ profile: 'DIVERGENT', lateralDistanceThreshold: 1, ...(seed % 3 === 0 ? { queryTags: ['code'] } : {}) });
      const got = lateralPass(pool, o, { ids: () => docs.keys(), docOf, queryVector: q, matrix: () => matrix, feedback, now: NOW });
      // the pipeline's way in: the docs visited without a lookup each, same outcome
      const visited = lateralPass(pool, o, { ids: () => [], forEachDoc: (fn) => docs.forEach(fn), docOf, queryVector: q, matrix: () => matrix, feedback, now: NOW });
      expect(visited.results).toEqual(got.results);
      // the memory table's way (the pipeline's): the same outcome
      const table = new MemoryTable(0, { version: 0, forEachDoc: (fn) => docs.forEach(fn) });
      const fast = lateralPass(pool, o, { ids: () => [], docOf, queryVector: q, matrix: () => matrix, feedback, now: NOW, table: () => table });
      expect(fast).toEqual(got);

      // the reference: every recallable memory a candidate, the cosine of the whole matrix in f32
      const qn = normalised(q);
      const pooled = new Map(pool.map((h) => [h.id, h]));
      const all: LateralCandidate[] = [];
      for (const [id, d] of docs) {
        if (!isRecallable(d, o)) continue;
        const row = matrix.indexOf.get(id)!;
        const dot = rowDot(matrix, row, qn);
        const h = pooled.get(id);
        const suppressed = feedback.isSuppressed(id);
        all.push({
          id,
          score: h ? h.score : 0,
          pooled: h !== undefined,
          distance: l2FromCosine(Math.fround(dot)),
          tags: d.suggestedTags && d.suggestedTags.length > 0 ? [...d.tags, ...d.suggestedTags] : d.tags,
          lexicalMatch: h !== undefined && h.why.bm25 > 0,
          importance: d.importance,
          decay: recencyDecay(d.createdAt, NOW, o.decayHalfLifeDays),
          lateralEligible: !suppressed && !isShadowed(d, docOf, o),
          lateralBoost: !suppressed ? feedback.factor(id) : 1,
          why: h?.why,
        });
      }
      const tags = deriveQueryTags(o.queryTags, pool.slice(0, QUERY_TAG_SOURCE_RESULTS).map((h) => docOf(h.id)!), o.queryTagLimit);
      const want = recallWithLateral(all, tags, o).map((r) => {
        const f = pooled.get(r.id)?.feedbackFactor;
        return r.mode === 'standard' && f !== undefined ? { ...r, feedbackFactor: f } : r;
      });
      expect(got.results.map((r) => [r.id, r.mode, r.score])).toEqual(want.map((r) => [r.id, r.mode, r.score]));
      expect(got.results).toEqual(want);
      laterals += got.results.filter((r) => r.mode === 'lateral').length;
    }
    expect(laterals).toBeGreaterThan(20); // the lateral heap was exercised, not only the standard one
  });

  it('the table path equals the visit on large worlds, where the score bound passes most sharers over', () => {
    let laterals = 0;
    for (let seed = 1; seed <= 12; seed++) {
      const { docs, vectors, pool, q } = world(1000 + seed, 3000, 2);
      const matrix = buildNeighbourMatrix(docs.keys(), (id) => vectors.get(id));
      const docOf = (id: string) => docs.get(id);
      const feedback = new FeedbackState();
      // reinforced and suppressed sharers (even seeds): the bound must allow the largest boost
      const ids = [...docs.keys()];
      for (let i = 0; i < (seed % 2 ? 0 : 60); i++) {
        const id = ids[(i * 37 + seed) % ids.length];
        feedback.record(i % 3 === 0 ? { kind: 'suppress', id, at: NOW + i } : { kind: 'reinforce', id, valence: 100, at: NOW + i });
      }
      const o = resolveRecallOptions({
        profile: 'DIVERGENT',
        lateralDistanceThreshold: seed % 3 ? 1 : 1.3,
        lateralMaxResults: 1 + 2 * (seed % 5),
        ...(seed % 4 === 0 ? { queryTags: ['code', 'music'] } : {}),
        ...(seed % 6 === 0 ? { asOf: NOW - 100 * 86_400_000, includeArchived: true } : {}),
      });
      const src = { ids: () => [], forEachDoc: (fn: (d: RecallDoc, id: string) => void) => docs.forEach(fn), docOf, queryVector: q, matrix: () => matrix, feedback, now: NOW };
      const want = lateralPass(pool, o, src);
      const source = { version: seed, forEachDoc: (fn: (d: RecallDoc, id: string) => void) => docs.forEach(fn) };
      const got = lateralPass(pool, o, { ...src, table: () => memoryTable(source) });
      expect(got).toEqual(want);
      // the table is kept for the next query of the same state, and its scratch left clean
      const t = memoryTable(source);
      expect(memoryTable(source)).toBe(t);
      expect(lateralPass(pool, o, { ...src, table: () => t })).toEqual(want);
      expect(t.marks.every((x) => x === 0) && t.tagBits.every((x) => x === 0)).toBe(true);
      laterals += got.results.filter((r) => r.mode === 'lateral').length;
    }
    expect(laterals).toBeGreaterThan(15);
  });
});
