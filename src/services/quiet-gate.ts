// When background work may run (careful ranking's fill, src/services/judge-fill.ts): not while a
// search or a capture runs, and not until the person has been quiet for `quietMs` after the last
// one ended. A person searching or typing in bursts gets both cores for the whole burst (the fill's
// item in flight, ~0.5-1 s of the judge, is the most it can overlap), and the fill reads between
// bursts. At 100k memories, the fill running between back-to-back queries cost the engine's own
// recall 26 -> 41 ms (p50; the quiet bench of session 6).

export interface QuietGate {
  /** A search or capture starts: call the returned function when it ends (idempotent). */
  hold(): () => void;
  /** Whether background work should wait now (something runs, or ended less than quietMs ago). */
  busy(): boolean;
  /** Resolves once nothing runs and nothing has for quietMs (at once when that is already so). */
  whenIdle(): Promise<void>;
  /** The same for a longer quiet time `ms` (the judge's load: ~10 s of a core, so only in a longer pause). */
  whenIdleFor(ms: number): Promise<void>;
}

export interface QuietGateClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The quiet time after a search or capture before background work resumes (ms). */
export const QUIET_MS = 2_000;

const realClock: QuietGateClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

/** The quiet time before the judge's model is loaded after a start (ms). */
export const LOAD_QUIET_MS = 10_000;

export function createQuietGate(quietMs: number = QUIET_MS, clock: QuietGateClock = realClock): QuietGate {
  let holds = 0;
  let lastEnd = Number.NEGATIVE_INFINITY;
  let timer: unknown = null;
  const waiters: (() => void)[] = [];
  const quietFor = () => clock.now() - lastEnd;
  const idle = () => holds === 0 && quietFor() >= quietMs;

  function schedule(): void {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
    if (holds > 0 || waiters.length === 0) return;
    if (idle()) {
      waiters.splice(0).forEach((r) => r());
      return;
    }
    timer = clock.setTimeout(() => {
      timer = null;
      schedule();
    }, quietMs - quietFor());
  }

  const gate: QuietGate = {
    hold() {
      holds++;
      schedule();
      let done = false;
      return () => {
        if (done) return;
        done = true;
        holds--;
        lastEnd = clock.now();
        schedule();
      };
    },
    busy: () => !idle(),
    whenIdle() {
      if (idle()) return Promise.resolve();
      return new Promise<void>((r) => {
        waiters.push(r);
        schedule();
      });
    },
    async whenIdleFor(ms) {
      // the short gate first, then the rest of `ms` counted from the last end; a hold meanwhile starts it over
      for (;;) {
        await gate.whenIdle();
        const left = ms - quietFor();
        if (left <= 0) return;
        await new Promise<void>((r) => clock.setTimeout(r, left));
        if (holds === 0 && quietFor() >= ms) return;
      }
    },
  };
  return gate;
}
