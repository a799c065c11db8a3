// Words for a long job's progress (pure, tested in progress.test.ts): what it is doing now and
// about how long is left, estimated from the pace so far.

export type SamplePhase = 'reading' | 'embedding' | 'saving' | 'indexing';

/** The phase in plain words, with the count while the encoder works. */
export function phaseWords(phase: SamplePhase, done: number, total: number): string {
  switch (phase) {
    case 'reading':
      return 'Reading the sample collection…';
    case 'embedding':
      return `Understanding the memories: ${done} of ${total}`;
    case 'saving':
      return `Saving ${total} memories on this device…`;
    case 'indexing':
      return 'Making them searchable…';
  }
}

/**
 * Time left, from the pace since the work started (`startedAt`, the first batch's start):
 * (total - done) x elapsed / done. Null until one batch is done (no pace yet) and once all is.
 * The saving and indexing after the last batch are short next to the encoder and are not counted.
 */
export function estimateLeftMs(startedAt: number, now: number, done: number, total: number): number | null {
  if (done <= 0 || done >= total || now <= startedAt) return null;
  return ((total - done) * (now - startedAt)) / done;
}

/** "about 20 seconds left", "about 2 minutes left", "a few seconds left"; "" when unknown. */
export function leftWords(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms) || ms < 0) return '';
  const s = ms / 1000;
  if (s < 5) return 'a few seconds left';
  if (s < 60) return `about ${Math.round(s / 5) * 5} seconds left`;
  const m = Math.round(s / 60);
  return m === 1 ? 'about a minute left' : `about ${m} minutes left`;
}
