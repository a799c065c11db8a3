// featurize() over the real lexical resources (built into public/generated/ on demand) with a
// stub encoder: which spaces are present, one encoder call, round trip through storage, and
// that related texts score above unrelated ones where a space's design says they should.
import { beforeAll, describe, expect, it } from 'vitest';
import { loadNodeResources } from '../../scripts/lib/resources-node';
import type { LexicalResources } from '../core/features';
import { detectFeatureDivergence, divergenceSimilarities, relevanceScore } from '../core/spaces';
import { deserializeFeatures, featurize, featurizeQuery, MAX_FEATURE_CHARS, planFeatures, planQueryFeatures, runPlan, serializeFeatures, spaceSimilarities } from './index';

/** Bag-of-letters "encoder": deterministic, unit length, counts its calls. */
function stubEncoder() {
  const calls: string[][] = [];
  return {
    calls,
    async embed(texts: string[]) {
      calls.push(texts);
      return texts.map((s) => {
        const v = new Float32Array(16);
        for (const ch of s.toLowerCase()) v[ch.charCodeAt(0) % 16] += 1;
        const n = Math.hypot(...v) || 1;
        return v.map((x) => x / n);
      });
    },
  };
}

let res: LexicalResources;
beforeAll(async () => {
  res = await loadNodeResources();
}, 60_000);

describe('featurize', () => {
  it('fills the spaces the text supports and leaves the rest absent', async () => {
    const enc = stubEncoder();
    const f = await featurize(
      {
        text: 'Caroline was really happy because the adoption agency in Boston called her back. She ran `checkStatus()` twice.',
        createdAt: Date.UTC(2024, 4, 7, 15),
        sessionPosition: 3,
        media: [{ caption: 'a letter from the agency' }],
      },
      enc,
      res,
    );
    expect(Object.keys(f).sort()).toEqual(['E1', 'E10', 'E11', 'E12', 'E13', 'E2', 'E3', 'E4', 'E5', 'E6', 'E7', 'E8', 'E9'].sort());
    // one encoder call: the text, one causal clause, one caption
    expect(enc.calls).toHaveLength(1);
    expect(enc.calls[0]).toHaveLength(3);
    expect(enc.calls[0][1]).toBe('the adoption agency in Boston called her back => Caroline was really happy');
    expect(f.E9!.length).toBe(512);
    expect(f.E8![2]).toBeGreaterThan(0); // positive compound
  });

  it('plain neutral prose: no E5, E7, E8, E10', async () => {
    const f = await featurize({ text: 'The meeting room is on the third floor.', createdAt: 0 }, stubEncoder(), res);
    for (const id of ['E5', 'E7', 'E8', 'E10'] as const) expect(f[id]).toBeUndefined();
    expect(f.E6).toBeDefined();
  });

  it('uses a given E1 without encoding the text; queries skip temporal spaces', async () => {
    const enc = stubEncoder();
    const e1 = Float32Array.from([1, 0]);
    const f = await featurize({ text: 'A quiet walk by the river.', createdAt: 0, semantic: e1 }, enc, res);
    expect(f.E1).toBe(e1);
    expect(enc.calls).toHaveLength(0);
    const q = await featurizeQuery('river walk', stubEncoder(), res);
    expect(q.E2 ?? q.E3 ?? q.E4).toBeUndefined();
    expect(q.E10).toBe(q.E1); // the query text probes memories' media captions
  });

  it('round-trips through serialize / deserialize with the same similarities', async () => {
    const f = await featurize(
      { text: 'Melanie painted a sunset at the lake because it calmed her; `paintSunset(lake)`', createdAt: 1e12, sessionPosition: 1 },
      stubEncoder(),
      res,
    );
    const rows = serializeFeatures(f);
    const back = deserializeFeatures(rows);
    const sims = spaceSimilarities(back, f);
    for (const [id, s] of Object.entries(sims)) expect(s, id).toBeCloseTo(1, 4);
    expect(Object.keys(rows).sort()).toEqual(Object.keys(f).sort());
  });

  it('related texts beat unrelated ones in E6, E12, E13 and overall relevance', async () => {
    const enc = stubEncoder();
    const q = await featurizeQuery('Which car did Jon buy?', enc, res);
    const related = await featurize({ text: 'Jon purchased a new automobile last week.', createdAt: 0 }, enc, res);
    const same = await featurize({ text: 'Jon bought a car, a red one.', createdAt: 0 }, enc, res);
    const other = await featurize({ text: 'The soup needed more salt and pepper.', createdAt: 0 }, enc, res);
    const sRel = spaceSimilarities(q, related);
    const sSame = spaceSimilarities(q, same);
    const sOther = spaceSimilarities(q, other);
    expect(sSame.E6!).toBeGreaterThan(sOther.E6 ?? 0);
    expect(sRel.E12!).toBeGreaterThan(sOther.E12!);
    // E13: "car" expands to "automobile", "buy" to "purchase": overlap E6 cannot see
    const anon = spaceSimilarities(q, await featurize({ text: 'She purchased a new automobile.', createdAt: 0 }, enc, res));
    expect(anon.E6 ?? 0).toBe(0);
    expect(anon.E13!).toBeGreaterThan(0.1);
    expect(sRel.E11!).toBeGreaterThan(0); // Jon in both
    expect(relevanceScore(sSame).score).toBeGreaterThanOrEqual(relevanceScore(sOther).score);
  });
});

describe('the featurizing plan (shared by the embed worker and the eval)', () => {
  it('lists every encoder text of a batch in one order: per input its text, clauses, captions', () => {
    const e1 = Float32Array.from([1, 0]);
    const plan = planFeatures(
      [
        { text: 'She smiled because the letter came.', createdAt: 0, media: [{ caption: 'a letter' }] },
        { text: 'Plain prose.', createdAt: 0, semantic: e1 }, // E1 given: nothing to encode
        { text: 'Second one.', createdAt: 0 },
      ],
      res,
    );
    expect(plan.texts).toEqual(['She smiled because the letter came.', 'the letter came => She smiled', 'a letter', 'Second one.']);
    // unit vectors, so E5 / E10 (means of one vector) are the vector itself
    const vs = [[1, 0], [0, 1], [0.6, 0.8], [0.8, 0.6]].map((x) => Float32Array.from(x));
    const [a, b, c] = plan.finish(vs);
    const arr = (x: Float32Array | undefined) => Array.from(x ?? []).map((n) => Number(n.toFixed(6)));
    expect([arr(a.E1), arr(a.E5), arr(a.E10)]).toEqual([[1, 0], [0, 1], [0.6, 0.8]]);
    expect(b.E1).toBe(e1);
    expect(b.E5 ?? b.E10).toBeUndefined();
    expect(arr(c.E1)).toEqual([0.8, 0.6]);
    expect(() => plan.finish(vs.slice(0, 1))).toThrow(expect.objectContaining({ code: 'INVALID_EMBEDDING' }));
  });

  it('reads at most MAX_FEATURE_CHARS of a text; a query plan has no temporal spaces and E10 = E1', async () => {
    const long = 'word '.repeat(MAX_FEATURE_CHARS); // 5 x the bound
    expect(planFeatures([{ text: long, createdAt: 0 }], res).texts[0]).toHaveLength(MAX_FEATURE_CHARS);
    const enc = stubEncoder();
    const [q] = await runPlan(planQueryFeatures('river walk', res), enc);
    expect(enc.calls).toEqual([['river walk']]);
    expect(q.E2 ?? q.E3 ?? q.E4).toBeUndefined();
    expect(q.E10).toBe(q.E1);
  });
});

describe('divergence on real features (seed 002 REQ-P3-04)', () => {
  // E1 given by hand: a unit vector per topic, so "same topic" / "other topic" is explicit
  const topic = (i: number) => Float32Array.from({ length: 4 }, (_, k) => (k === i ? 1 : 0));
  const BREAD = 0;
  const CODE = 1;
  const capture = (text: string, t: number, e1: Float32Array) =>
    featurize({ text, createdAt: Date.UTC(2026, 10, 22, 9) + t * 60_000, semantic: e1 }, stubEncoder(), res);
  const sourdough = async () => [
    {
      text: 'Fed the sourdough starter this morning with equal weights of rye flour and water; it doubled in six hours, so the levain is ready for tomorrow.',
      features: await capture('Fed the sourdough starter this morning with equal weights of rye flour and water; it doubled in six hours, so the levain is ready for tomorrow.', 0, topic(BREAD)),
    },
    {
      text: 'Baked two sourdough loaves: 75% hydration, long cold proof in the fridge overnight, a dark crust and an open crumb. The starter is strong now.',
      features: await capture('Baked two sourdough loaves: 75% hydration, long cold proof in the fridge overnight, a dark crust and an open crumb. The starter is strong now.', 1, topic(BREAD)),
    },
  ];

  it('a short same-topic query alerts in no space (E13 / E6 compare by containment, not Jaccard)', async () => {
    const recent = await sourdough();
    const q = await featurizeQuery('feeding the sourdough starter', stubEncoder(), res);
    q.E1 = topic(BREAD);
    // Jaccard against the long memories is tiny: the alert of the bug report
    expect(spaceSimilarities(q, recent[0].features).E13!).toBeLessThan(0.2);
    expect(detectFeatureDivergence(q, recent)).toEqual([]);
    const sims = divergenceSimilarities(q, recent[0].features);
    expect(sims.E6!).toBeGreaterThan(0.5); // sourdough + starter of {feed, sourdough, starter}
    expect(sims.E13!).toBeGreaterThan(0.5);
  });

  it('a topic switch alerts in E1 and in the lexical spaces', async () => {
    const recent = await sourdough();
    const cur = await capture('Renamed the retry helper and moved the queue config into its own module after the deploy review.', 5, topic(CODE));
    const spaces = detectFeatureDivergence(cur, recent).map((a) => a.embedder);
    expect(spaces).toContain('E1');
    expect(spaces).toContain('E6');
    expect(spaces).toContain('E13');
  });

  it('a temporal-only difference never alerts: "at 9 am" vs "at 9 pm" is the same entity set', async () => {
    const am = await capture('met Priya at 9 am', 0, topic(BREAD));
    const pm = await capture('met Priya at 9 pm', 720, topic(BREAD));
    expect(spaceSimilarities(pm, am).E11).toBe(1);
    expect(divergenceSimilarities(pm, am).E11).toBe(1);
    expect(detectFeatureDivergence(pm, [{ text: 'met Priya at 9 am', features: am }])).toEqual([]);
    // the same text captured again later: no alert either
    const again = await capture('met Priya at 9 am', 1440, topic(BREAD));
    expect(detectFeatureDivergence(again, [{ text: 'met Priya at 9 am', features: am }])).toEqual([]);
  });

  it('E11 for divergence: one named person shared with a memory naming three is no topic switch', async () => {
    const recent = await capture('We had lunch with Priya, Tomas and Wen at the Bristol office.', 0, topic(BREAD));
    const cur = await capture('Priya sent the slides.', 10, topic(BREAD));
    expect(spaceSimilarities(cur, recent).E11!).toBeCloseTo(1 / 4, 6); // {priya} vs {priya, tomas, wen, bristol}
    expect(divergenceSimilarities(cur, recent).E11).toBe(1);
  });
});
