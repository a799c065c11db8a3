import { describe, expect, it } from 'vitest';
import { confidenceOf } from '../deep/trigger';
import { resolveHybridConfig, DEFAULT_HYBRID_CONFIG } from '../hybrid';
import { CALIBRATIONS, calibrationFor, MINILM_CALIBRATION_ID, NEUTRAL_CALIBRATION, USE_LITE_CALIBRATION_ID } from './calibration';
import { DEFAULT_RANKING, resolveRanking } from './ranking';

describe('calibrationFor', () => {
  it('gives each known encoder its own record', () => {
    expect(calibrationFor(USE_LITE_CALIBRATION_ID)).toBe(CALIBRATIONS[USE_LITE_CALIBRATION_ID]);
    expect(calibrationFor(MINILM_CALIBRATION_ID)).toBe(CALIBRATIONS[MINILM_CALIBRATION_ID]);
  });
  it("gives the default encoder's (MiniLM's) when no encoder is named", () => {
    expect(calibrationFor(undefined)).toBe(CALIBRATIONS[MINILM_CALIBRATION_ID]);
  });
  it('gives an encoder without a record the neutral defaults: no session context, min-max BM25, the fixed trigger (never a prototype key)', () => {
    for (const id of ['hub:Xenova/bge-small-en-v1.5@ea104dacec62/q8', 'folder:0123456789ab/q8', 'toString', '__proto__', '']) {
      const c = calibrationFor(id);
      expect(c).toBe(NEUTRAL_CALIBRATION);
      expect(resolveRanking(c.ranking)).toEqual(DEFAULT_RANKING);
      expect(resolveRanking(c.ranking).sessionContext).toBe(0); // session neighbours off (MiniLM's 0.1 is MiniLM's)
      expect(resolveRanking(c.ranking).evidencePower).toBe(0);
      expect(resolveHybridConfig(DEFAULT_HYBRID_CONFIG, c.hybrid)).toMatchObject({ lexicalScore: 'minmax', coveragePower: 1 });
      expect(c.confidence).toBeUndefined(); // deep search's seed blend, not MiniLM's logistic fit
    }
  });
  it('every record is a valid hybrid config and ranking', () => {
    for (const c of Object.values(CALIBRATIONS)) {
      expect(() => resolveHybridConfig(DEFAULT_HYBRID_CONFIG, c.hybrid)).not.toThrow();
      expect(() => resolveRanking(c.ranking)).not.toThrow();
    }
  });
  it("MiniLM's trigger reads as a probability: a flat top 10 escalates at 0.3, a peaked one does not", () => {
    const model = calibrationFor(MINILM_CALIBRATION_ID).confidence!;
    for (const w of Object.values(model)) expect(Number.isFinite(w)).toBe(true);
    // peaked: top 1, gap 0.5, spread 0.7 -> z = 1.644 - 3.871 - 0.144 + 6.2825 = 3.9115 (p 0.980)
    const peaked = [1, 0.5, 0.45, 0.42, 0.4, 0.38, 0.36, 0.34, 0.32, 0.3];
    expect(confidenceOf(peaked, 10, model).value).toBeCloseTo(1 / (1 + Math.exp(-3.9115)), 4);
    // flat: top 0.6, gap 0.01 / 0.6, spread 0.05 / 0.6 -> z = 1.644 - 2.3226 - 0.0048 + 0.747917 = 0.064517 (p 0.516)
    const flat = [0.6, 0.59, 0.58, 0.58, 0.57, 0.57, 0.56, 0.56, 0.55, 0.55];
    expect(confidenceOf(flat, 10, model).value).toBeCloseTo(1 / (1 + Math.exp(-0.064517)), 4);
    // flat and strong (a speaker-labelled top 1.1, clipped to 1; gap 0.02 / 1.1, spread 0.06 / 1.1)
    // -> z = 1.644 - 3.871 - 0.005236 + 0.489545 = -1.742691 (p 0.149): escalates at 0.3
    const strongFlat = [1.1, 1.08, 1.08, 1.07, 1.07, 1.06, 1.06, 1.05, 1.05, 1.04];
    const c = confidenceOf(strongFlat, 10, model).value;
    expect(c).toBeCloseTo(1 / (1 + Math.exp(1.742691)), 4);
    expect(c).toBeLessThan(0.3);
  });
  it("USE-lite's refit trigger, worked by hand", () => {
    // flat: top 0.6, gap 0.01 / 0.6, spread 0.05 / 0.6 -> z = 1.198 - 1.9926 + 0.01485 + 0.620833 = -0.158917
    const flat = [0.6, 0.59, 0.58, 0.58, 0.57, 0.57, 0.56, 0.56, 0.55, 0.55];
    expect(confidenceOf(flat, 10, calibrationFor(USE_LITE_CALIBRATION_ID).confidence).value).toBeCloseTo(1 / (1 + Math.exp(0.158917)), 4);
  });
  it('every bundled encoder ships a finite trigger model', () => {
    for (const c of Object.values(CALIBRATIONS)) for (const w of Object.values(c.confidence!)) expect(Number.isFinite(w)).toBe(true);
  });
  it("USE-lite keeps session context off (it lowered the paraphrase MRR with that encoder)", () => {
    expect(calibrationFor(USE_LITE_CALIBRATION_ID).ranking.sessionContext ?? 0).toBe(0);
    expect(calibrationFor(MINILM_CALIBRATION_ID).ranking.sessionContext).toBe(0.1);
  });
  it('MiniLM ships late interaction (3 over the top 30, refined at query time in the app) and speaker labels (0.25); USE-lite the labels only (no token outputs)', () => {
    const m = resolveRanking(calibrationFor(MINILM_CALIBRATION_ID).ranking);
    expect([m.lateInteraction, m.lateDepth, m.lateIdfDepth, m.speakerLabel]).toEqual([3, 30, 100, 0.25]);
    const u = resolveRanking(calibrationFor(USE_LITE_CALIBRATION_ID).ranking);
    expect([u.lateInteraction, u.speakerLabel]).toEqual([0, 0.25]);
  });
});
