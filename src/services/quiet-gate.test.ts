import { describe, expect, it } from 'vitest';
import { createQuietGate, type QuietGateClock } from './quiet-gate';

/** A hand-driven clock: `advance(ms)` runs the timers that fall due, in order. */
function manualClock() {
  let t = 0;
  let next = 1;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const clock: QuietGateClock = {
    now: () => t,
    setTimeout: (fn, ms) => {
      const id = next++;
      timers.set(id, { at: t + ms, fn });
      return id;
    },
    clearTimeout: (h) => void timers.delete(h as number),
  };
  const advance = async (ms: number) => {
    const end = t + ms;
    for (;;) {
      const due = [...timers.entries()].filter(([, x]) => x.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      timers.delete(due[0]);
      t = due[1].at;
      due[1].fn();
      await Promise.resolve();
    }
    t = end;
    await Promise.resolve();
  };
  return { clock, advance };
}

describe('the quiet gate (when careful ranking may read in the background)', () => {
  it('is idle at first, busy while a search runs and for 2 s after it ends, then idle again', async () => {
    const { clock, advance } = manualClock();
    const gate = createQuietGate(2000, clock);
    expect(gate.busy()).toBe(false);
    await expect(gate.whenIdle()).resolves.toBeUndefined();
    const end = gate.hold();
    expect(gate.busy()).toBe(true);
    let resumed = false;
    void gate.whenIdle().then(() => (resumed = true));
    await advance(5000); // a long search: still held
    expect(resumed).toBe(false);
    end();
    end(); // idempotent: one hold, one release
    expect(gate.busy()).toBe(true); // quiet for 0 ms of 2000
    await advance(1999);
    expect(resumed).toBe(false);
    await advance(1);
    expect(resumed).toBe(true);
    expect(gate.busy()).toBe(false);
  });

  it('a search that starts within the quiet time starts it over: a burst of searches keeps the work waiting to its end', async () => {
    const { clock, advance } = manualClock();
    const gate = createQuietGate(2000, clock);
    let resumedAt = -1;
    gate.hold()(); // t 0: a search ends
    void gate.whenIdle().then(() => (resumedAt = clock.now()));
    await advance(1500);
    const second = gate.hold(); // t 1500: another search
    await advance(300);
    second(); // t 1800: it ends
    await advance(1999);
    expect(resumedAt).toBe(-1);
    await advance(1);
    expect(resumedAt).toBe(3800); // 2000 after the last end, not after the first
  });

  it('two overlapping holds: idle only when both ended, counted from the later end', async () => {
    const { clock, advance } = manualClock();
    const gate = createQuietGate(2000, clock);
    const a = gate.hold();
    const b = gate.hold();
    let resumedAt = -1;
    void gate.whenIdle().then(() => (resumedAt = clock.now()));
    await advance(100);
    a();
    await advance(3000); // b still runs
    expect(resumedAt).toBe(-1);
    b(); // t 3100
    await advance(2000);
    expect(resumedAt).toBe(5100);
  });

  it("a longer quiet time (the judge's load): 10 s after the last end, a search in between starts it over; at once when nothing ever ran", async () => {
    const { clock, advance } = manualClock();
    const gate = createQuietGate(2000, clock);
    let first = false;
    void gate.whenIdleFor(10_000).then(() => (first = true));
    await advance(0);
    expect(first).toBe(true); // a start with no search yet: no wait
    let loadedAt = -1;
    gate.hold()(); // t 0: the first search after the start ends
    void gate.whenIdleFor(10_000).then(() => (loadedAt = clock.now()));
    await advance(6000);
    const again = gate.hold(); // t 6000: another search
    await advance(500);
    again(); // t 6500
    await advance(9999);
    expect(loadedAt).toBe(-1);
    await advance(1);
    expect(loadedAt).toBe(16_500);
  });
});
