import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { RecallOptions, defaultLateralMaxResults, resolveRecallOptions } from './options';
import { CognitiveProfile } from './profiles';

function errorOf(f: () => unknown): AppError {
  try {
    f();
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected a throw');
}

describe('resolveRecallOptions defaults', () => {
  it('fills every seed default with BALANCED', () => {
    const o = resolveRecallOptions();
    expect(o).toMatchObject({
      profile: 'BALANCED',
      topK: 10,
      lateralMode: false,
      lateralDistanceThreshold: 1.2,
      lateralMaxResults: 3,
      lateralMinTagOverlap: 0.5,
      assocHops: 0,
      beamWidth: 2,
      minCosine: 0.72,
      hopDecay: 0.8,
      includeArchived: false,
      includeQuarantined: false,
      evaluationWindow: 20,
      lexicalWeight: 0.5,
      semanticWeight: 0.5,
      candidateK: 50,
      queryTags: null,
    });
  });

  it('lateralMaxResults defaults to max(1, floor(topK/3)) of the resolved topK', () => {
    expect(defaultLateralMaxResults(10)).toBe(3);
    expect(defaultLateralMaxResults(12)).toBe(4);
    expect(defaultLateralMaxResults(2)).toBe(1);
    expect(defaultLateralMaxResults(1)).toBe(1);
    expect(resolveRecallOptions({ topK: 9 }).lateralMaxResults).toBe(3);
    expect(resolveRecallOptions({ topK: 9, lateralMaxResults: 0 }).lateralMaxResults).toBe(0);
    // SYSTEMATIZER's topK 25 -> 8
    expect(resolveRecallOptions({ profile: 'SYSTEMATIZER' }).lateralMaxResults).toBe(8);
  });

  it('takes lateralMode from the profile, and an explicit value overrides it', () => {
    expect(resolveRecallOptions({ profile: 'DIVERGENT' }).lateralMode).toBe(true);
    expect(resolveRecallOptions({ profile: 'DIVERGENT', lateralMode: false }).lateralMode).toBe(false);
    expect(resolveRecallOptions({ profile: 'BALANCED', lateralMode: true }).lateralMode).toBe(true);
  });

  it('treats undefined as unset and normalises query tags', () => {
    const o = resolveRecallOptions({ topK: undefined, queryTags: ['  Data Base ', 'data-base', 'B-Tree'] });
    expect(o.topK).toBe(10);
    expect(o.queryTags).toEqual(['data-base', 'b-tree']);
  });
});

describe('validation', () => {
  it.each([
    ['topK', 0, 'an integer from 1 to 1000'],
    ['topK', 2.5, 'an integer from 1 to 1000'],
    ['assocHops', 4, 'an integer from 0 to 3'],
    ['beamWidth', 0, 'an integer from 1 to 8'],
    ['lateralDistanceThreshold', 0, 'greater than 0'],
    ['lateralDistanceThreshold', 2.5, 'at most 2'],
    ['lateralMinTagOverlap', 1.1, 'from 0 to 1'],
    ['minCosine', Number.NaN, 'from -1 to 1'],
    ['hopDecay', 0, 'greater than 0'],
    ['evaluationWindow', -1, 'an integer from 1 to 100000'],
    ['includeArchived', 'yes', 'true or false'],
    ['profile', 'CREATIVE', 'one of BALANCED, DIVERGENT, DEBUGGING, CRITICAL, SYSTEMATIZER'],
  ])('refuses %s = %s naming option, value and range', (name, value, allowed) => {
    const e = errorOf(() => resolveRecallOptions({ [name]: value } as never));
    expect(e.code).toBe('INVALID_OPTION');
    expect(e.message).toContain(`"${name}"`);
    expect(e.message).toContain(String(typeof value === 'string' ? JSON.stringify(value) : value));
    expect(e.message).toContain(allowed);
  });

  it('refuses unknown option names (typos)', () => {
    const e = errorOf(() => resolveRecallOptions({ lateralThreshold: 1.5 } as never));
    expect(e.code).toBe('INVALID_OPTION');
    expect(e.message).toContain('Unknown recall option "lateralThreshold"');
  });

  it('refuses includeQuarantined with CRITICAL (quarantined never)', () => {
    const e = errorOf(() => resolveRecallOptions({ profile: 'CRITICAL', includeQuarantined: true }));
    expect(e.code).toBe('INVALID_OPTION');
    expect(e.message).toContain('CRITICAL');
    expect(resolveRecallOptions({ profile: 'BALANCED', includeQuarantined: true }).includeQuarantined).toBe(true);
  });

  it('refuses candidateK below topK and non-object input', () => {
    expect(errorOf(() => resolveRecallOptions({ topK: 20, candidateK: 10 })).message).toContain('at least topK (20)');
    expect(errorOf(() => resolveRecallOptions(null as never)).code).toBe('INVALID_OPTION');
  });
});

describe('builder', () => {
  it('reproduces the seed example and validates on build()', () => {
    const o = RecallOptions.builder()
      .profile(CognitiveProfile.DIVERGENT)
      .lateralDistanceThreshold(1.5)
      .lateralMaxResults(5)
      .lateralMinTagOverlap(0.3)
      .build();
    expect(o).toMatchObject({
      profile: 'DIVERGENT',
      lateralMode: true,
      lateralDistanceThreshold: 1.5,
      lateralMaxResults: 5,
      lateralMinTagOverlap: 0.3,
      topK: 10,
    });
    expect(() => RecallOptions.builder().topK(0).build()).toThrow(/topK/);
  });

  it('resolves the hybrid parameters the candidates stage applies', () => {
    const o = RecallOptions.builder().profile('DEBUGGING').topK(4).build();
    const { candidateK, lexicalWeight, semanticWeight, includeArchived, includeQuarantined } = o;
    expect({ candidateK, lexicalWeight, semanticWeight, includeArchived, includeQuarantined }).toEqual({
      candidateK: 20,
      lexicalWeight: 0.8,
      semanticWeight: expect.closeTo(0.2, 12),
      includeArchived: false,
      includeQuarantined: false,
    });
  });
});
