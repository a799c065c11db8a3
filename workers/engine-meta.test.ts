// The engine's meta filled in on first use: the same entries, in the same order, as filling it at once.
import { describe, expect, it } from 'vitest';
import { LaterMap } from './engine-meta';

describe('LaterMap', () => {
  it('fills in on the first use, in the order the fills were given, before the write that used it', () => {
    const lm = new LaterMap<string, number>();
    let runs = 0;
    lm.later((m) => (runs++, m.set('a', 1).set('b', 2)));
    lm.later((m) => m.set('c', 3).set('a', 10)); // a later fill overrides an earlier one's value, keeping its place
    expect(runs).toBe(0);
    lm.map.set('d', 4); // the first use: the fills run first, then this write
    expect(runs).toBe(1);
    expect([...lm.map]).toEqual([['a', 10], ['b', 2], ['c', 3], ['d', 4]]);
    expect(runs).toBe(1); // once
  });

  it('a reset drops what is pending', () => {
    const lm = new LaterMap<string, number>();
    lm.later((m) => m.set('old', 1));
    lm.reset(new Map([['new', 2]]));
    expect([...lm.map]).toEqual([['new', 2]]);
  });
});
