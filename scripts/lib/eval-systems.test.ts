import { describe, expect, it } from 'vitest';
import { defaultSystems, parseArgs } from '../eval-locomo';
import { ABLATION_SPACES, ablationSystems, assocSystems, captionOf, uncalibratedSystem } from './eval-systems';

describe('eval systems', () => {
  it('reads the caption LoCoMo appends to a turn', () => {
    expect(captionOf('Mel: look! [image: a dog on a beach]')).toBe('a dog on a beach');
    expect(captionOf('Mel: [image: not at the end] ok')).toBeUndefined();
    expect(captionOf('Mel: no picture')).toBeUndefined();
  });
  it('names one ablation row per content space besides E1, plus the bounds', () => {
    expect(ABLATION_SPACES).toEqual(['E5', 'E6', 'E7', 'E8', 'E9', 'E10', 'E11', 'E12', 'E13']);
    const names = ablationSystems(new Map()).map((s) => s.name);
    expect(names[0]).toBe('hybridOnly');
    expect(names).toContain('hybrid+E12');
    expect(names.slice(-2)).toEqual(['allSpaces', 'allSpacesSeedWeights']);
    expect(assocSystems(new Map()).map((s) => s.name)).toEqual(['assocHops0', 'assocHops1', 'assocHops2', 'assocHops3']);
  });
  it('shows the components, the calibrated hybrid and the ranking before the calibration', () => {
    expect(defaultSystems(true).map((s) => s.name)).toEqual(['bm25', 'dense', 'hybrid', 'hybridMinMax', 'rrf']);
    expect(defaultSystems(false).map((s) => s.name)).toEqual(['bm25']);
    expect(uncalibratedSystem(new Map()).name).toBe('uncalibrated');
  });
  it('parses --assoc-hops and refuses values outside 0..3', () => {
    expect(parseArgs(['--assoc-hops', '2']).assocHops).toBe(2);
    expect(parseArgs([]).assocHops).toBeUndefined();
    expect(parseArgs(['--no-spaces']).spaces).toBe(false);
    expect(() => parseArgs(['--assoc-hops', '4'])).toThrow(/0 to 3/);
    expect(() => parseArgs(['--assoc-hops'])).toThrow(/0 to 3/);
  });
});
