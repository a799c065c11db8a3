import { describe, expect, it } from 'vitest';
import { resolveRecallOptions } from './options';
import { PROFILES, PROFILE_NAMES } from './profiles';

describe('profiles', () => {
  it('has five documented presets whose hybrid weights are valid', () => {
    expect(PROFILE_NAMES).toEqual(['BALANCED', 'DIVERGENT', 'DEBUGGING', 'CRITICAL', 'SYSTEMATIZER']);
    for (const p of PROFILE_NAMES) {
      expect(PROFILES[p].behaviour.length).toBeGreaterThan(10);
      expect(PROFILES[p].lexicalWeight).toBeGreaterThanOrEqual(0);
      expect(PROFILES[p].lexicalWeight).toBeLessThanOrEqual(1);
    }
  });

  it('only DIVERGENT turns lateral on (seed 000)', () => {
    const on = PROFILE_NAMES.filter((p) => resolveRecallOptions({ profile: p }).lateralMode);
    expect(on).toEqual(['DIVERGENT']);
  });

  it('DEBUGGING is lexical-heavy and requires lexical matches', () => {
    const o = resolveRecallOptions({ profile: 'DEBUGGING' });
    expect(o.lexicalWeight).toBeGreaterThan(o.semanticWeight);
    expect(o.requireLexicalMatch).toBe(true);
    expect(o.lateralMode).toBe(false);
  });

  it('CRITICAL weights importance and is strict', () => {
    const o = resolveRecallOptions({ profile: 'CRITICAL' });
    expect(o.importanceWeight).toBe(0.5);
    expect(o.minRelativeScore).toBe(0.5);
    expect(o.includeQuarantined).toBe(false);
  });

  it('SYSTEMATIZER is broad and grouped by tag', () => {
    const o = resolveRecallOptions({ profile: 'SYSTEMATIZER' });
    expect(o.topK).toBe(25);
    expect(o.groupBy).toBe('tag');
    expect(o.candidateK).toBe(100);
  });

  it('explicit options override the preset', () => {
    const o = resolveRecallOptions({ profile: 'SYSTEMATIZER', topK: 5, groupBy: 'none', lexicalWeight: 0.9 });
    expect(o).toMatchObject({ topK: 5, groupBy: 'none', lexicalWeight: 0.9, candidateK: 20 });
  });
});
