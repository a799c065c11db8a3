import { describe, expect, it } from 'vitest';
import { createUuidV7, isUuidV7, uuidV7Time, uuidv7, uuidv7At } from './ids';

describe('uuidv7', () => {
  it('has the v7 layout and embeds the timestamp', () => {
    const gen = createUuidV7(() => 0x0189_abcd_ef01, (b) => b.fill(0));
    const id = gen();
    // 0x0189abcdef01 -> "0189abcd-ef01", version nibble 7, variant 10xx -> '8'
    expect(id).toBe('0189abcd-ef01-7000-8000-000000000000');
    expect(isUuidV7(id)).toBe(true);
    expect(uuidV7Time(id)).toBe(0x0189_abcd_ef01);
  });

  it('is strictly increasing as a string within the same millisecond', () => {
    const gen = createUuidV7(() => 1_700_000_000_000);
    const ids = Array.from({ length: 5000 }, () => gen()); // > 4096: forces the ms borrow
    for (let i = 1; i < ids.length; i++) expect(ids[i] > ids[i - 1]).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('stays sortable when the clock goes backwards', () => {
    const times = [2000, 1000, 1000, 3000];
    let i = 0;
    const gen = createUuidV7(() => times[i++]);
    const ids = times.map(() => gen());
    expect([...ids].sort()).toEqual(ids);
    expect(uuidV7Time(ids[1])).toBe(2000); // held at the last timestamp
    expect(uuidV7Time(ids[3])).toBe(3000);
  });

  it('sorts by creation time across milliseconds', () => {
    let t = 1_000;
    const gen = createUuidV7(() => (t += 7));
    const ids = Array.from({ length: 100 }, () => gen());
    expect([...ids].sort()).toEqual(ids);
    expect(isUuidV7(uuidv7())).toBe(true);
    expect(isUuidV7('not-a-uuid')).toBe(false);
  });
});

describe('uuidv7At', () => {
  it('carries the given time and stays unique', () => {
    const ids = Array.from({ length: 1000 }, () => uuidv7At(1_600_000_000_000));
    expect(new Set(ids).size).toBe(1000);
    expect(ids.every((id) => uuidV7Time(id) === 1_600_000_000_000 && isUuidV7(id))).toBe(true);
    expect(uuidv7At(1000) < uuidv7At(2000)).toBe(true);
  });
});
