import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import { resolveRecallOptions } from './options';
import { DEEP_DEFAULTS, hybridPatch, resolveDeepOptions } from './options-deep';

const fails = (input: Record<string, unknown>): AppError => {
  try {
    resolveRecallOptions(input as never);
  } catch (e) {
    return e as AppError;
  }
  throw new Error('did not throw');
};

describe('deep recall options (seed 001)', () => {
  it('defaults leave recall as it is', () => {
    const o = resolveRecallOptions({});
    expect({ expandHops: o.expandHops, fusion: o.fusion, candidateTopK: o.candidateTopK, multiQuery: o.multiQuery, hyde: o.hyde, deepSearch: o.deepSearch, iterative: o.iterative }).toEqual(DEEP_DEFAULTS);
    expect(o.iterative).toBeNull();
    expect(o.deepSearch.mode).toBe('off');
    expect(hybridPatch(o)).toEqual({});
  });

  it('deepSearch (seed 003) is validated through the recall options with a message naming the field', () => {
    expect(resolveRecallOptions({ deepSearch: { mode: 'shadow', poolCap: 20 } }).deepSearch).toMatchObject({ mode: 'shadow', poolCap: 20, threshold: 0.3 });
    expect(() => resolveRecallOptions({ deepSearch: { mode: 'on' as never } })).toThrow('Recall option "deepSearch.mode" must be "off", "shadow", "active" or "adaptive"; got "on".');
    expect(() => resolveRecallOptions({ deepSearch: { rateLimit: -1 } })).toThrow('"deepSearch.rateLimit" must be a whole number from 0 to 1000');
  });

  it('iterative: true = 3 passes; maxIterations clamped to [1, 5]; bad shapes refused naming the field', () => {
    expect(resolveRecallOptions({ iterative: true }).iterative).toEqual({ maxIterations: 3, forceHard: false });
    expect(resolveRecallOptions({ iterative: false }).iterative).toBeNull();
    expect(resolveRecallOptions({ iterative: { maxIterations: 9 } }).iterative).toEqual({ maxIterations: 5, forceHard: false });
    expect(resolveRecallOptions({ iterative: { maxIterations: 0, forceHard: true } }).iterative).toEqual({ maxIterations: 1, forceHard: true });
    expect(() => resolveRecallOptions({ iterative: { maxIterations: 'x' as never } })).toThrow('Recall option "iterative.maxIterations" must be a number (clamped to 1..5)');
    expect(() => resolveRecallOptions({ iterative: { forceHard: 1 as never } })).toThrow('"iterative.forceHard" must be true or false');
    expect(() => resolveRecallOptions({ iterative: { passes: 2 } as never })).toThrow('unknown field "passes"');
    expect(resolveRecallOptions({ deepSearch: { mode: 'adaptive' } }).deepSearch.mode).toBe('adaptive');
  });

  it('accepts the valid values', () => {
    const o = resolveRecallOptions({ expandHops: 1, multiQuery: 8, hyde: true, candidateTopK: 60, fusion: { strategy: 'rrf', k: 30 } });
    expect([o.expandHops, o.multiQuery, o.hyde, o.candidateTopK]).toEqual([1, 8, true, 60]);
    expect(hybridPatch(o)).toEqual({ fusion: 'rrf', rrfK: 30, lexicalWeight: 1, semanticWeight: 1, candidateK: 60 });
    expect(hybridPatch(resolveDeepOptions({ fusion: { strategy: 'rrf' } }))).toEqual({ fusion: 'rrf', rrfK: 60, lexicalWeight: 1, semanticWeight: 1 });
    // weighted: normalised to sum 1 (3:1 -> 0.75 / 0.25)
    expect(hybridPatch(resolveDeepOptions({ fusion: { strategy: 'weighted', weights: { lexical: 3, vector: 1 } } }))).toEqual({
      fusion: 'weighted',
      lexicalWeight: 0.75,
      semanticWeight: 0.25,
    });
  });

  it.each([
    [{ expandHops: 2 }, 'Recall option "expandHops" must be 0 or 1 (one hop over the entity graph; more hops are not supported); got 2.'],
    [{ multiQuery: 0 }, 'Recall option "multiQuery" must be an integer from 1 to 8 (the query strings, the original included; 1 = off); got 0.'],
    [{ multiQuery: 9 }, 'Recall option "multiQuery" must be an integer from 1 to 8 (the query strings, the original included; 1 = off); got 9.'],
    [{ multiQuery: 2.5 }, 'Recall option "multiQuery" must be an integer from 1 to 8 (the query strings, the original included; 1 = off); got 2.5.'],
    [{ hyde: 'yes' }, 'Recall option "hyde" must be true or false; got "yes".'],
    [{ candidateTopK: 0 }, 'Recall option "candidateTopK" must be an integer from 1 to 10000, or null for the default; got 0.'],
    [{ fusion: { strategy: 'max' } }, 'Recall option "fusion.strategy" must be "weighted" or "rrf"; got "max".'],
    [{ fusion: { strategy: 'rrf', k: 0 } }, 'Recall option "fusion.k" must be a number greater than 0 and at most 10000; got 0.'],
    [{ fusion: { strategy: 'weighted', weights: { lexical: -1, vector: 1 } } }, 'Recall option "fusion.weights.lexical" must be a finite number from 0 to 1000; got -1.'],
    [{ fusion: { strategy: 'weighted', weights: { lexical: 0, vector: 0 } } }, 'Recall option "fusion.weights" must be weights that are not both 0 (nothing would be ranked); got {"lexical":0,"vector":0}.'],
    [{ fusion: { strategy: 'weighted' } }, 'Recall option "fusion.weights" must be an object { lexical, vector } of numbers >= 0; got undefined.'],
    [{ fusion: { strategy: 'weighted', weights: { lexical: 1, vector: 1, dense: 1 } } }, 'unknown field "dense"'],
    [{ fusion: 'rrf' }, 'Recall option "fusion" must be'],
  ])('refuses %j with a clear message', (input, message) => {
    const e = fails(input);
    expect(e.code).toBe('INVALID_OPTION');
    expect(e.message).toContain(message);
  });

  it('multiQuery 1 and expandHops 0 are the documented no-ops', () => {
    const o = resolveRecallOptions({ multiQuery: 1, expandHops: 0, hyde: false, candidateTopK: null, fusion: null });
    expect(hybridPatch(o)).toEqual({});
  });
});
