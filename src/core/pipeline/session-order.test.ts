import { describe, expect, it } from 'vitest';
import { SessionOrder } from './session-order';
import { sessionNeighbours } from './session-context';

describe('SessionOrder: session neighbours kept in step with writes', () => {
  it('hand-worked: a capture goes between its neighbours by time, a delete closes the gap, a move changes sessions', () => {
    const o = new SessionOrder([
      { id: 'a', sessionId: 's', createdAt: 10 },
      { id: 'c', sessionId: 's', createdAt: 30 },
      { id: 'x', sessionId: '', createdAt: 5 },
    ]);
    expect([o.of('a'), o.of('c'), o.of('x')]).toEqual([['c'], ['a'], []]);
    o.set('b', 's', 20); // between a and c
    expect([o.of('a'), o.of('b'), o.of('c')]).toEqual([['b'], ['a', 'c'], ['b']]);
    o.set('b2', 's', 20); // the same time: by id, after b
    expect(o.of('b2')).toEqual(['b', 'c']);
    o.remove('b');
    expect(o.of('a')).toEqual(['b2']);
    o.set('c', 't', 30); // an edit moving c to another session
    expect([o.of('b2'), o.of('c')]).toEqual([['a'], []]);
    o.set('a', '', 10); // no session any more
    expect([o.of('a'), o.of('b2')]).toEqual([[], []]);
  });

  it('answers as sessionNeighbours over the same memories after random writes', () => {
    let seed = 7;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 8) % n;
    const live = new Map<string, { id: string; sessionId: string; createdAt: number }>();
    const put = (id: string) => live.set(id, { id, sessionId: rnd(5) === 0 ? '' : `s${rnd(4)}`, createdAt: rnd(30) });
    for (let i = 0; i < 40; i++) put(`m${i}`);
    const o = new SessionOrder(live.values());
    for (let step = 0; step < 300; step++) {
      const id = `m${rnd(60)}`;
      if (rnd(3) === 0 && live.has(id)) {
        live.delete(id);
        o.remove(id);
      } else {
        put(id);
        const d = live.get(id)!;
        o.set(id, d.sessionId, d.createdAt);
      }
      const want = sessionNeighbours(live.values());
      for (let i = 0; i < 60; i++) expect(o.of(`m${i}`)).toEqual(want(`m${i}`));
    }
  });
});
