// The staged start's time slices: batches run until a slice has taken SLICE_MS by the clock, then
// the worker yields (a queued query gets in), and a newer load stops the run at the next yield.
import { describe, expect, it } from 'vitest';
import { inSlices, sliceClock } from './engine-slices';

describe('inSlices', () => {
  it('yields once a slice has taken its time, not after a fixed count', async () => {
    let now = 0;
    const clock = sliceClock(() => now, 50);
    const log: string[] = [];
    // each batch "takes" 20 ms: 3 batches fill a 50 ms slice (0, 20, 40 < 50; 60 >= 50)
    const yielded = clock.yield.bind(clock);
    clock.yield = async () => {
      log.push('yield');
      await yielded();
    };
    const items = Array.from({ length: 7 }, (_, i) => i);
    const done = await inSlices(clock, items, 1, (p) => {
      log.push(String(p[0]));
      now += 20;
    }, () => false);
    expect(done).toBe(true);
    expect(log).toEqual(['0', '1', '2', 'yield', '3', '4', '5', 'yield', '6']);
  });

  it('a slow batch is followed by a yield at once', async () => {
    let now = 0;
    const clock = sliceClock(() => now, 50);
    let yields = 0;
    const yielded = clock.yield.bind(clock);
    clock.yield = async () => {
      yields++;
      await yielded();
    };
    await inSlices(clock, [1, 2, 3], 1, () => (now += 400), () => false);
    expect(yields).toBe(2); // before the 2nd and the 3rd
  });

  it('stops at the first yield after a newer load began', async () => {
    let now = 0;
    const clock = sliceClock(() => now, 50);
    const seen: number[] = [];
    let superseded = false;
    const done = await inSlices(clock, [1, 2, 3, 4], 2, (p) => {
      seen.push(...p);
      now += 60;
      superseded = true;
    }, () => superseded);
    expect(done).toBe(false);
    expect(seen).toEqual([1, 2]);
  });
});
