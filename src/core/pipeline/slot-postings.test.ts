import { describe, expect, it } from 'vitest';
import { grown, SlotPostings, SlotSet, Touched } from './slot-postings';

const sorted = (a: Int32Array) => [...a].sort((x, y) => x - y);

describe('SlotPostings (typed inverted lists)', () => {
  it('adds, reads and deletes slots per key; an emptied key goes', () => {
    const p = new SlotPostings();
    p.add(7, 0);
    p.add(7, 3);
    p.add(7, 5);
    p.add(9, 3);
    expect(sorted(p.get(7))).toEqual([0, 3, 5]);
    expect(sorted(p.get(9))).toEqual([3]);
    expect(p.get(42).length).toBe(0);
    expect(p.keys).toBe(2);
    p.delete(7, 3); // swap-remove: the last slot (5) takes the hole
    expect([...p.get(7)]).toEqual([0, 5]);
    p.delete(9, 3);
    expect(p.keys).toBe(1);
    p.delete(9, 3); // absent key: nothing happens
    p.delete(7, 99); // absent slot: nothing happens
    expect(sorted(p.get(7))).toEqual([0, 5]);
  });

  it('keeps every list whole through moves, emptied keys (their list numbers reused) and compactions', () => {
    const p = new SlotPostings();
    const want = new Map<number, number[]>();
    const add = (k: number, slot: number) => {
      p.add(k, slot);
      want.set(k, [...(want.get(k) ?? []), slot]);
    };
    for (let k = 0; k < 1000; k++) for (let s = 0; s <= k % 5; s++) add(k, k * 10 + s);
    const full = p.bytes;
    // empty 900 keys: their ranges turn dead
    for (let k = 100; k < 1000; k++) {
      for (const s of want.get(k)!) p.delete(k, s);
      want.delete(k);
    }
    expect(p.keys).toBe(100);
    expect(p.get(500).length).toBe(0);
    // new keys and longer lists: the dead ranges are reclaimed by a compaction, not a larger pool
    for (let k = 2000; k < 2050; k++) add(k, k);
    for (let s = 0; s < 40; s++) add(7, 70_000 + s);
    expect(p.bytes).toBeLessThanOrEqual(full);
    for (const [k, slots] of want) expect(sorted(p.get(k))).toEqual([...slots].sort((x, y) => x - y));
  });

  it('grows a list past its first capacity', () => {
    const p = new SlotPostings();
    for (let s = 0; s < 100; s++) p.add(1, s);
    expect(p.get(1).length).toBe(100);
    expect(p.get(1)[99]).toBe(99);
  });
});

describe('SlotSet', () => {
  it('adds once, deletes in O(1), iterates its members', () => {
    const s = new SlotSet();
    s.add(4);
    s.add(1);
    s.add(4);
    s.add(10);
    expect(s.size).toBe(3);
    expect(sorted(s.slots())).toEqual([1, 4, 10]);
    s.delete(4);
    expect(s.has(4)).toBe(false);
    expect(s.has(10)).toBe(true);
    expect(sorted(s.slots())).toEqual([1, 10]);
    s.delete(4);
    expect(s.size).toBe(2);
  });
});

describe('Touched (per-query accumulator)', () => {
  it('sums per slot, lists each slot once, and resets only what it touched', () => {
    const t = new Touched();
    t.add(3, 0.5);
    t.add(20, 1);
    t.add(3, 0.25);
    expect(t.count).toBe(2);
    expect([...t.list.subarray(0, t.count)]).toEqual([3, 20]);
    expect(t.acc[3]).toBe(0.75);
    expect(t.acc[20]).toBe(1);
    t.reset();
    expect(t.count).toBe(0);
    expect(t.acc[3]).toBe(0);
    t.add(3, 2);
    expect(t.acc[3]).toBe(2);
    expect(t.count).toBe(1);
  });
});

describe('grown', () => {
  it('doubles to fit and keeps the contents; a big enough array is returned as is', () => {
    const a = Int32Array.from([1, 2, 3, 4]);
    expect(grown(a, 4, (n) => new Int32Array(n))).toBe(a);
    const b = grown(a, 5, (n) => new Int32Array(n));
    expect(b.length).toBe(8);
    expect([...b.subarray(0, 4)]).toEqual([1, 2, 3, 4]);
  });
});
