import { describe, expect, it } from 'vitest';
import { AppError, ERROR_CATALOGUE } from '../src/core/errors';
import { EngineCore } from './engine-core';
import { createEngineApi } from './engine-api';
import { serializeSpace, sparseFromEntries, DEFAULT_SIMILARITY_CONFIG, type SimilarityConfig } from '../src/core/spaces';
import { transferable } from '../src/bridge/engine-bridge';
import type { EngineDoc } from '../src/protocol/engine';
import { engineDoc } from '../src/testing/engine';
import { CALIBRATIONS } from '../src/core/pipeline';
import { DEFAULT_ENCODER_ID, ENCODERS } from '../src/embed/encoders';

describe('EngineCore', () => {
  it('refuses work before load, then searches what was loaded', async () => {
    const core = new EngineCore();
    expect(() => core.upsert(engineDoc('a', 'x'))).toThrow(AppError);
    expect(core.load([engineDoc('a', 'red apple', [1, 0]), engineDoc('b', 'green pear', [0, 1])], { dim: 2 })).toEqual({ size: 2 });
    const hits = await core.search({ text: 'pear', vector: new Float32Array([0, 1]) }, { topK: 1 });
    expect(hits.map((h) => h.id)).toEqual(['b']);
    expect(core.stats()).toMatchObject({ loaded: true, dim: 2, size: 2, searches: 1 });
  });

  it('load replaces the index; a bad doc leaves the old one in place', async () => {
    const core = new EngineCore();
    core.load([engineDoc('a', 'one')], { dim: 2 });
    core.load([engineDoc('b', 'two')], { dim: 2 });
    expect(core.stats().size).toBe(1);
    expect(() => core.load([engineDoc('c', 'three', [1, 2, 3])], { dim: 2 })).toThrow(AppError);
    expect((await core.search({ text: 'two', vector: null }, { topK: 5 })).map((h) => h.id)).toEqual(['b']);
  });

  it('removeMany takes many memories out in one call (a delete of a selection, Delete all)', async () => {
    const core = new EngineCore();
    core.load([engineDoc('a', 'alpha', [1, 0]), engineDoc('b', 'beta', [0, 1]), engineDoc('c', 'gamma', [1, 1])], { dim: 2 });
    core.removeMany(['a', 'c', 'missing']);
    expect(core.stats()).toMatchObject({ size: 1, spaces: 1 });
    expect((await core.search({ text: 'alpha gamma beta', vector: new Float32Array([1, 0]) }, { topK: 5 })).map((h) => h.id)).toEqual(['b']);
  });

  it('a search cancelled before it runs does no work', async () => {
    const core = new EngineCore();
    core.load([engineDoc('a', 'alpha')], { dim: 2 });
    const p = core.search({ text: 'alpha', vector: null }, { topK: 1 }, 7);
    core.cancel(7); // arrives while the search yields
    await expect(p).rejects.toMatchObject({ code: 'ABORTED' });
    expect(core.stats()).toMatchObject({ searches: 0, cancelled: 1 });
    expect((await core.search({ text: 'alpha', vector: null }, { topK: 1 }, 8)).length).toBe(1);
  });
});

describe('EngineCore: the fusion calibrated for the encoder that made the vectors', () => {
  // Query "red car", N = 2: red df 1 -> idf ln 2; car df 0 -> ln 6. 'a' holds only "red":
  // coverage ln 2 / (ln 2 + ln 6) = 0.2789; a one-hit lexical list would min-max to 1.
  const share = Math.log(2) / (Math.log(2) + Math.log(6));
  const lexicalOf = async (opts: { encoder?: string; config?: { lexicalScore: 'minmax' } }) => {
    const core = new EngineCore();
    core.load([engineDoc('a', 'red apple', [1, 0]), engineDoc('b', 'green pear', [0, 1])], { dim: 2, ...opts });
    const hits = await core.search({ text: 'red car', vector: new Float32Array([0, 1]) }, { topK: 2 });
    return hits.find((h) => h.id === 'a')!.why.lexical;
  };
  it('MiniLM (and no encoder named: the default): coverage^1.5', async () => {
    expect(await lexicalOf({ encoder: 'all-MiniLM-L6-v2-int8' })).toBeCloseTo(0.5 * share ** 1.5, 10);
    expect(await lexicalOf({})).toBeCloseTo(0.5 * share ** 1.5, 10);
  });
  it('an encoder without its own record: the neutral min-max (the one lexical hit scores 1)', async () => {
    expect(await lexicalOf({ encoder: 'hub:some/model@abc/q8' })).toBe(0.5);
  });
  it('USE-lite: its own calibration (coverage^1); an explicit config still wins', async () => {
    expect(await lexicalOf({ encoder: 'use-lite-en/v1' })).toBeCloseTo(0.5 * share, 10);
    expect(await lexicalOf({ encoder: 'use-lite-en/v1', config: { lexicalScore: 'minmax' } })).toBe(0.5);
  });
  it('the calibration ids are the encoders\' ids', () => {
    for (const id of Object.keys(CALIBRATIONS)) expect(ENCODERS.map((e) => e.id)).toContain(id);
    expect(CALIBRATIONS).toHaveProperty([DEFAULT_ENCODER_ID]);
  });
});

describe('engine api', () => {
  it('throws plain envelopes, never Error objects', async () => {
    const api = createEngineApi(new EngineCore());
    const e = await api.upsert(engineDoc('a', 'x')).catch((x: unknown) => x);
    expect(e).not.toBeInstanceOf(Error);
    expect(e).toMatchObject({ code: 'NOT_READY', message: ERROR_CATALOGUE.NOT_READY });
    expect(structuredClone(e)).toEqual(e);
    // a bug (not an AppError) leaves as WORKER_CRASHED with what it said kept as detail
    const core = new EngineCore();
    core.stats = () => {
      throw new TypeError('boom');
    };
    expect(await createEngineApi(core).stats().catch((x: unknown) => x)).toEqual({
      code: 'WORKER_CRASHED',
      message: ERROR_CATALOGUE.WORKER_CRASHED,
      detail: 'TypeError: boom',
    });
  });
});

// ---- the thirteen spaces, feedback, evaluator, settings -------------------------------------

const sparse = (...terms: number[]) => serializeSpace('E6', sparseFromEntries(terms.map((t) => [t, 1] as [number, number])));

function edoc(id: string, text: string, vector: number[], over: Partial<EngineDoc> = {}): EngineDoc {
  const base = engineDoc(id, text, vector);
  return { ...base, sessionId: 's', suggestedTags: [], ...over, features: { ...base.features, ...over.features } };
}

describe('EngineCore with spaces', () => {
  it('recall annotates each result with its per-space similarities; features are kept across a meta-only upsert', async () => {
    const core = new EngineCore();
    core.load(
      [
        edoc('a', 'red apple', [1, 0], { features: { E6: sparse(1, 2) } }),
        edoc('b', 'green pear', [0, 1], { features: { E6: sparse(3) } }),
      ],
      { dim: 2 },
    );
    expect(core.stats()).toMatchObject({ size: 2, spaces: 2 });
    const q = { text: 'apple', features: { E1: serializeSpace('E1', new Float32Array([1, 0])), E6: sparse(1, 2) } };
    const { results } = await core.recall(q, { topK: 2 });
    const a = results.find((r) => r.id === 'a')!;
    expect(a.spaces.sims.E1).toBeCloseTo(1, 6);
    expect(a.spaces.sims.E6).toBeCloseTo(1, 6); // weighted Jaccard of identical term sets
    expect(a.spaces.relevance.relevantSpaces).toEqual(['E1', 'E6']);
    expect(a.spaces.highlyRelevant).toBe(false); // 2 spaces < 3
    // a status change arrives without features: the spaces stay
    core.upsert({ ...engineDoc('a', 'red apple'), sessionId: 's', suggestedTags: [], status: 'archived' });
    expect(core.stats().spaces).toBe(2);
    const again = await core.recall(q, { topK: 2, includeArchived: true });
    const kept = again.results.find((r) => r.id === 'a')!;
    expect(kept.spaces.sims.E6).toBeCloseTo(1, 6);
    expect(kept.why.cosine).toBeCloseTo(1, 6); // and so does its vector
    core.remove('a');
    expect(core.stats()).toMatchObject({ size: 1, spaces: 1 });
  });

  it('feedback re-ranks the next recall, also when an event arrives out of time order', async () => {
    const core = new EngineCore();
    core.load([edoc('a', 'apple pie', [1, 0]), edoc('b', 'apple tart', [1, 0])], { dim: 2 });
    const q = { text: 'apple', features: { E1: serializeSpace('E1', new Float32Array([1, 0])) } };
    const before = (await core.recall(q, {})).results;
    expect(before.map((r) => r.id)).toEqual(['a', 'b']); // a tie: id order
    expect(core.recordFeedback({ kind: 'reinforce', id: 'b', valence: 100, at: 10 })).toMatchObject({ wasLateral: false });
    core.recordFeedback({ kind: 'suppress', id: 'b', at: 5 }); // older: the log is replayed, the reinforcement (later) wins
    const after = (await core.recall(q, {})).results;
    expect(after.map((r) => r.id)).toEqual(['b', 'a']);
    expect(after[0].feedbackFactor).toBeCloseTo(1 + 0.5 * Math.tanh(0.5), 9);
    expect(() => core.recordFeedback({ kind: 'reinforce', id: 'a', valence: 500, at: 11 })).toThrow(AppError);
    // a malformed event out of time order is refused too, and does not enter the log
    expect(() => core.recordFeedback({ kind: 'reinforce', id: 'a', valence: 500, at: 1 })).toThrow(AppError);
    expect((await core.recall(q, {})).results.map((r) => r.id)).toEqual(['b', 'a']);
  });

  it('lateral results feed the evaluator; its state is returned when it changes and restored by load', async () => {
    const core = new EngineCore();
    const docs = [
      edoc('near', 'database indexing', [1, 0], { tags: ['storage'] }),
      edoc('far', 'tape vault', [0, 1], { tags: ['storage'] }),
    ];
    core.load(docs, { dim: 2 });
    const q = { text: 'database', features: { E1: serializeSpace('E1', new Float32Array([1, 0])) }, tags: ['storage'] };
    const out = await core.recall(q, { profile: 'DIVERGENT' });
    expect(out.results.map((r) => [r.id, r.mode])).toEqual([
      ['near', 'standard'],
      ['far', 'lateral'],
    ]);
    expect(out.evaluator).toMatchObject({ returned: 1, reinforced: 0 });
    expect((await core.recall(q, { profile: 'BALANCED' })).evaluator).toBeNull(); // no lateral: unchanged
    const fb = core.recordFeedback({ kind: 'reinforce', id: 'far', valence: 30, at: 1 });
    expect(fb.wasLateral).toBe(true);
    expect(core.lateralStatus()).toMatchObject({ samples: 1, reinforced: 1, lur: 1, lsr: 0, lhi: 0 });
    const restored = new EngineCore();
    restored.load(docs, { dim: 2, evaluator: fb.evaluator, feedback: [{ kind: 'reinforce', id: 'far', valence: 30, at: 1 }] });
    expect(restored.lateralStatus()).toMatchObject({ samples: 1, reinforced: 1, lur: 1 });
    // a corrupt saved state is refused and the previous engine stays
    expect(() => restored.load([], { dim: 2, evaluator: { version: 9 } as never })).toThrow(/evaluator/);
    expect(restored.stats().size).toBe(2);
  });

  it('settings are validated: a bad config or default option is refused with its message', async () => {
    const core = new EngineCore();
    core.load([edoc('a', 'x', [1, 0])], { dim: 2 });
    const bad = structuredClone(DEFAULT_SIMILARITY_CONFIG) as SimilarityConfig;
    bad.lowThresholds.E1 = -0.1;
    expect(() => core.setSimilarityConfig(bad)).toThrow('Invalid threshold in config: E1 (Semantic) threshold -0.1 must be in [0.0, 1.0]');
    expect(() => core.setRecallDefaults({ topK: 0 })).toThrow(/topK/);
    core.setRecallDefaults({ topK: 1 });
    const q = { text: 'x', features: { E1: serializeSpace('E1', new Float32Array([1, 0])) } };
    expect((await core.recall(q, {})).results.length).toBe(1);
    await expect(core.recall(q, { nonsense: 1 } as never)).rejects.toMatchObject({ code: 'INVALID_OPTION' });
  });

  it('divergence: the recent window leaves out the captured memory and looks at content spaces only', () => {
    const core = new EngineCore();
    const t = 10 * 3_600_000;
    core.load(
      [
        edoc('old', 'long ago', [1, 0], { createdAt: t - 5 * 3_600_000 }),
        edoc('r1', 'recent one', [1, 0], { createdAt: t - 60_000, features: { E2: serializeSpace('E2', new Float32Array([1, 0])) } }),
        edoc('new', 'just captured', [0, 1], { createdAt: t }),
      ],
      { dim: 2 },
    );
    const current = { E1: serializeSpace('E1', new Float32Array([0, 1])), E2: serializeSpace('E2', new Float32Array([0, 1])) };
    const out = core.divergence({ features: current, now: t, sessionId: 's', excludeId: 'new' });
    expect(out.recent.map((r) => r.id)).toEqual(['r1']);
    expect(out.alerts.map((a) => [a.embedder, a.similarity, a.threshold])).toEqual([['E1', 0, 0.3]]); // E2 (cos 0) is temporal: no alert
    expect(out.alerts[0].recentMemorySummary).toBe('recent one');
    expect(out.meaningLine).toBeUndefined(); // no encoder named: USE-lite's scale, the gate's own margin
  });

  it("divergence on MiniLM's cosine scale: an E1 of 0.2 is no alert there (line 0.145); the gate's line comes along", () => {
    const core = new EngineCore();
    const t = 10 * 3_600_000;
    core.load([edoc('r1', 'recent one', [1, 0], { createdAt: t - 60_000 })], { dim: 2, encoder: 'all-MiniLM-L6-v2-int8' });
    const at = (c: number) => core.divergence({ features: { E1: serializeSpace('E1', new Float32Array([c, Math.sqrt(1 - c * c)])) }, now: t, sessionId: 's' });
    expect(at(0.2).alerts).toEqual([]); // on USE-lite's line (0.30) this alerted
    const far = at(0.1);
    expect(far.alerts.map((a) => a.embedder)).toEqual(['E1']);
    expect(far.alerts[0].threshold).toBeCloseTo(0.145, 6);
    expect(far.meaningLine).toBeCloseTo(0.1312, 6);
  });

  it('divergence: the recent window is gated like every read path (no quarantined, archived or earlier version)', () => {
    const core = new EngineCore();
    const t = 10 * 3_600_000;
    const recent = (id: string, over: Partial<EngineDoc> = {}) => edoc(id, `recent ${id}`, [1, 0], { createdAt: t - 60_000, ...over });
    core.load([recent('ok'), recent('unsure', { status: 'quarantined' }), recent('shelved', { status: 'archived' }), recent('v1', { supersededBy: 'ok' }), recent('gone', { deletedAt: t })], { dim: 2 });
    const out = core.divergence({ features: { E1: serializeSpace('E1', new Float32Array([0, 1])) }, now: t, sessionId: 's' });
    expect(out.recent.map((r) => r.id)).toEqual(['ok']);
  });

  it('search: decay by the caller\'s clock, earlier versions below their successor, asOf in both lists', async () => {
    const core = new EngineCore();
    const DAY = 86_400_000;
    const now = 1000 * DAY;
    core.load(
      [
        edoc('cur', 'garden plan', [1, 0], { lastAccessedAt: now - 30 * DAY, validFrom: 500 * DAY }),
        edoc('v1', 'garden plan', [1, 0], { supersededBy: 'cur', validFrom: 100 * DAY, validTo: 500 * DAY }),
        edoc('v0', 'garden plan', [1, 0], { supersededBy: 'cur', validFrom: 0, validTo: 100 * DAY }),
      ],
      { dim: 2 },
    );
    const q = { text: 'garden plan', vector: new Float32Array([1, 0]) };
    const plain = await core.search(q, { topK: 3 });
    // v0 / v1 have the memory's very text (a tag edit): not listed twice while the memory is
    expect(plain.map((h) => h.id)).toEqual(['cur']);
    core.upsert(edoc('v1', 'garden plans', [1, 0], { supersededBy: 'cur', validFrom: 100 * DAY, validTo: 500 * DAY }));
    const edited = await core.search({ text: 'garden', vector: new Float32Array([1, 0]) }, { topK: 3 });
    expect(edited.map((h) => h.id)).toEqual(['cur', 'v1']);
    expect(edited[1].score).toBe(edited[0].score * 0.5); // same match: x0.5, below its memory
    const decayed = await core.search(q, { topK: 2, decayTauDays: 30, now });
    expect(decayed[0].score).toBeCloseTo(plain[0].score * Math.exp(-1), 12);
    expect((await core.search(q, { topK: 2, asOf: 200 * DAY })).map((h) => h.id)).toEqual(['v1']);
    expect((await core.search(q, { topK: 2, asOf: 50 * DAY })).map((h) => h.id)).toEqual(['v0']); // the memory is not valid then: shown
    await expect(core.search(q, { topK: 2, decayTauDays: -3 })).rejects.toMatchObject({ code: 'INVALID_OPTION' });
  });

  it('recall returns in one message what the view shows: divergence, evaluator status, labels of non-results', async () => {
    const core = new EngineCore();
    const t = 10 * 3_600_000;
    core.load(
      [
        edoc('a', 'red apple', [1, 0], { createdAt: t - 60_000 }),
        edoc('b', '\n  green pear  \nsecond line', [0, 1], { createdAt: t - 120_000 }),
        edoc('old', 'long ago', [0, 1], { createdAt: t - 5 * 3_600_000 }),
      ],
      { dim: 2 },
    );
    const features = () => ({ E1: serializeSpace('E1', new Float32Array([1, 0])) });
    const out = await core.recall({ text: 'apple', features: features(), now: t, sessionId: 's' }, { topK: 1 });
    expect(out.results.map((r) => r.id)).toEqual(['a']);
    // the same window and alerts as the separate divergence call
    expect(out.divergence).toEqual(core.divergence({ features: features(), now: t, sessionId: 's' }));
    expect(out.divergence!.recent.map((r) => r.id)).toEqual(['a', 'b']); // newest first; 'old' is outside the window
    expect(out.labels).toEqual({ b: 'green pear' }); // a is a result; its label comes with its memory
    expect(out.lateralStatus).toEqual(core.lateralStatus());
    expect(out.divergenceError).toBeUndefined();
  });

  it('transferable moves feature buffers once and copies a shared one', () => {
    const shared = new ArrayBuffer(8);
    const d1 = edoc('a', 'x', [1, 0], { features: { E6: shared } });
    const d2 = edoc('b', 'y', [0, 1], { features: { E6: shared } });
    const { docs, buffers } = transferable([d1, d2]);
    expect(buffers).toEqual([d1.features!.E1, shared, d2.features!.E1]);
    expect(docs[1].features!.E6).not.toBe(shared);
    expect(docs[1].features!.E6!.byteLength).toBe(8);
  });
});
