// Start-up timings of the embed worker (issue 12, point 11): named performance marks, read by
// scripts/bench/startup.ts through the worker's performance timeline and summed into the ready
// message's `timings` (ms since the worker started), so where the seconds go is visible.
const PREFIX = 'mnemograph:embed:';

/** Marks `name` now (a no-op where the performance timeline is missing). */
export function mark(name: string): void {
  try {
    performance.mark(PREFIX + name);
  } catch {
    /* no timeline here (a test runtime): the timings are only informative */
  }
}

/** Every mark so far, name -> ms since the worker started, rounded. */
export function startupTimings(): Record<string, number> {
  const out: Record<string, number> = {};
  try {
    for (const e of performance.getEntriesByType('mark')) if (e.name.startsWith(PREFIX)) out[e.name.slice(PREFIX.length)] = Math.round(e.startTime);
  } catch {
    /* as above */
  }
  return out;
}
