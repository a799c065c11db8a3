// The holder of the running encoder forwards every optional call the featurizer offers: a call it
// dropped silently turned a feature off in the app (the offline multiQuery rewording never ran).
import { describe, expect, it } from 'vitest';
import { createFakeEmbedder } from '../testing/encoder';
import { createActiveEncoder, runtimeOf } from './active-encoder';
import { embedderFeaturizer, type SpaceFeaturizer } from './featurizer';

const withVariants = (tag: string): SpaceFeaturizer => {
  const base = embedderFeaturizer(createFakeEmbedder(8, `enc-${tag}`));
  return {
    ...base,
    queryVariants: async (query, count, feedback) =>
      Array.from({ length: count }, (_, i) => ({ text: `${tag}:${query}:${i}:${feedback.length}`, vector: null })),
  };
};

describe('the active encoder', () => {
  it('forwards the offline query variants of the running encoder, and follows a switch', async () => {
    const a = createActiveEncoder(runtimeOf(createFakeEmbedder(8, 'enc-a'), withVariants('a')));
    expect(a.featurizer.queryVariants).toBeTypeOf('function');
    expect((await a.featurizer.queryVariants!('fix car', 2, ['doc one'])).map((v) => v.text)).toEqual(['a:fix car:0:1', 'a:fix car:1:1']);
    a.use(runtimeOf(createFakeEmbedder(8, 'enc-b'), withVariants('b')));
    expect((await a.featurizer.queryVariants!('fix car', 1, [])).map((v) => v.text)).toEqual(['b:fix car:0:0']);
  });

  it('says "none" when the running encoder has no rewording, so the services skip it', () => {
    const a = createActiveEncoder(runtimeOf(createFakeEmbedder(8, 'enc-a')));
    expect(a.featurizer.queryVariants).toBeUndefined();
  });
});
