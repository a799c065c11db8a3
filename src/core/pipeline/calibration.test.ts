import { describe, expect, it } from 'vitest';
import { resolveHybridConfig, DEFAULT_HYBRID_CONFIG } from '../hybrid';
import { CALIBRATIONS, calibrationFor, MINILM_CALIBRATION_ID, USE_LITE_CALIBRATION_ID } from './calibration';
import { resolveRanking } from './ranking';

describe('calibrationFor', () => {
  it('gives each known encoder its own record', () => {
    expect(calibrationFor(USE_LITE_CALIBRATION_ID)).toBe(CALIBRATIONS[USE_LITE_CALIBRATION_ID]);
    expect(calibrationFor(MINILM_CALIBRATION_ID)).toBe(CALIBRATIONS[MINILM_CALIBRATION_ID]);
  });
  it("falls back to MiniLM's for an unknown or absent encoder (never a prototype key)", () => {
    for (const id of [undefined, 'bge-small-en-v1.5', 'toString', '__proto__']) expect(calibrationFor(id)).toBe(CALIBRATIONS[MINILM_CALIBRATION_ID]);
  });
  it('every record is a valid hybrid config and ranking', () => {
    for (const c of Object.values(CALIBRATIONS)) {
      expect(() => resolveHybridConfig(DEFAULT_HYBRID_CONFIG, c.hybrid)).not.toThrow();
      expect(() => resolveRanking(c.ranking)).not.toThrow();
    }
  });
});
