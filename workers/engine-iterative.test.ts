// Iterative search in the engine: the passes come back with the recall, the reformulations are
// tried in order, and a cancel sent while the loop runs stops it between passes (ABORTED).
import { describe, expect, it } from 'vitest';
import { EngineCore } from './engine-core';
import { serializeSpace } from '../src/core/spaces';
import { engineDoc } from '../src/testing/engine';

function loaded(): EngineCore {
  const core = new EngineCore();
  core.load(
    [
      engineDoc('a', 'red apple pie', [1, 0]),
      engineDoc('b', 'green pear tart', [0, 1]),
      engineDoc('c', 'apple orchard visit', [0.7, 0.7]),
      engineDoc('d', 'pear harvest in autumn', [0.2, 0.9]),
    ],
    { dim: 2 },
  );
  return core;
}
const q = (reformulations?: { text: string; vector: Float32Array | null }[]) => ({
  text: 'apple',
  features: { E1: serializeSpace('E1', new Float32Array([1, 0])) },
  ...(reformulations ? { reformulations } : {}),
});

describe('iterative search in the engine', () => {
  it('off: no record; forced: pass 1 is the search, pass 2 the first reformulation, recorded and explained', async () => {
    const core = loaded();
    expect((await core.recall(q(), { topK: 2 })).iterative).toBeUndefined();
    const out = await core.recall(q([{ text: 'pear', vector: new Float32Array([0, 1]) }]), { topK: 2, iterative: { forceHard: true, maxIterations: 2 } });
    const it = out.iterative!;
    expect(it.hard).toBe(true);
    expect(it.passes.map((p) => [p.pass, p.action, p.query])).toEqual([
      [1, 'retrieve', 'apple'],
      [2, 'reformulate', 'pear'],
    ]);
    expect(it.explanation[1]).toBe(`pass 2: reformulated as "pear", added ${it.passes[1].added}`);
    expect(it.passes[1].added).toBeGreaterThan(0);
    expect(out.results.length).toBeLessThanOrEqual(2);
  });

  it('a cancel sent while the loop runs stops it between passes', async () => {
    const core = loaded();
    const running = core.recall(q([{ text: 'pear', vector: null }, { text: 'orchard', vector: null }]), { topK: 2, iterative: { forceHard: true, maxIterations: 5 } }, 7);
    // timers fire in order: the recall's first yield, then this one (the loop now waits in pass 2's yield)
    await new Promise((r) => setTimeout(r, 0));
    core.cancel(7);
    await expect(running).rejects.toMatchObject({ code: 'ABORTED' });
  });
});
