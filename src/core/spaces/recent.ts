// The recent window for divergence, in the thirteen-spaces design's words: "2 hours OR current
// session, whichever is smaller". Both bound the same look-back, so the smaller window is their
// intersection: memories of the current session created in the last `recentWindowHours`.
// When none of the in-window memories belongs to the current session (a new session: the design
// then uses the 2-hour window instead), fall back to the time window alone. Nothing in the
// window -> [] (no alerts).

import { DEFAULT_SIMILARITY_CONFIG, type SimilarityConfig } from './config';

export interface RecentCandidate {
  createdAt: number; // epoch ms
  sessionId: string;
}

/** Newest first. Memories created after `now` are ignored (clock skew, imported data). */
export function selectRecentWindow<T extends RecentCandidate>(
  memories: readonly T[],
  now: number,
  currentSessionId: string,
  config: Pick<SimilarityConfig, 'recentWindowHours'> = DEFAULT_SIMILARITY_CONFIG,
): T[] {
  const since = now - config.recentWindowHours * 3_600_000;
  const inTime = memories
    .filter((m) => m.createdAt >= since && m.createdAt <= now)
    .sort((a, b) => b.createdAt - a.createdAt);
  const inSession = inTime.filter((m) => m.sessionId === currentSessionId);
  return inSession.length > 0 ? inSession : inTime;
}
