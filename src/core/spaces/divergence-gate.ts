// When a divergence is worth telling the person (issue 12, point 1). detectDivergence raises an
// alert per content space whose best similarity to the recent window is below the space's low
// threshold; one such space is weak evidence: a four-word query shares no key words with a long
// memory on the same topic (E6 / E13 at 0.00), names no person (E11 at 0.00), carries another
// feeling (E8). Measured on the sample collection and on hand-written session scripts
// (scripts/measure-explore.ts; the figures are in src/core/spaces/README.md), "any space below its
// threshold" fired on 51% of the queries and captures that were ON the recent topic. So the
// alert is SHOWN only when the evidence is strong, that is when all of these hold:
//
//   1. the recent window holds at least `minWindow` (2) memories: one memory is a thin picture of
//      "what you worked on";
//   2. the person has done at least `minEarlierActions` (1) thing (a capture or a recall) earlier
//      in this session: the first step of a sitting (a reload, or after 30 minutes idle) is
//      expected to start something new;
//   3. the meaning space (E1, the sentence encoder, the best single judge of topic) is below its
//      low threshold by at least `meaningMargin` (0.05: best similarity < 0.25 with the default
//      0.3); unrelated sentences score about -0.05-0.3 with USE-lite, and short queries on the
//      recent topic went as low as 0.17-0.29 (a query worded unlike the memories);
//   4. at least `minAgreeing` (3) of the semantic spaces (the design's divergence note names E1, E5,
//      E6, E7, E10, E12, E13) are below their low thresholds, E1 among them: the meaning, the key
//      words and the related words agree that the topic changed. Feelings (E8), spelling (E9) and
//      people (E11) do not count: they differ between memories of one topic all the time.
//
// The per-space figures stay available (behind "details"); the rule only decides whether to speak.

import type { SpaceId } from '../types';
import { cosine } from './similarity';
import type { DivergenceAlert } from './divergence';

export interface DivergenceGateRule {
  minWindow: number;
  minEarlierActions: number;
  meaningSpace: SpaceId;
  meaningMargin: number;
  minAgreeing: number;
  /** The spaces whose agreement counts (condition 4). */
  agreeingSpaces: readonly SpaceId[];
}

export const DIVERGENCE_GATE: Readonly<DivergenceGateRule> = Object.freeze({
  minWindow: 2,
  minEarlierActions: 1,
  meaningSpace: 'E1',
  meaningMargin: 0.05,
  minAgreeing: 3,
  agreeingSpaces: Object.freeze(['E1', 'E5', 'E6', 'E7', 'E10', 'E12', 'E13'] as SpaceId[]),
});

/**
 * Why an alert is shown or kept quiet (the first condition that failed, in the order above;
 * 'dismissed' is the caller's: the person dismissed an alert about the same recent topic).
 */
export type DivergenceReason =
  | 'strong' // shown
  | 'dismissed'
  | 'no-alerts'
  | 'window-too-small'
  | 'session-just-started'
  | 'meaning-close'
  | 'too-few-spaces';

export interface DivergenceVerdict {
  show: boolean;
  reason: DivergenceReason;
  /** Semantic spaces below their low thresholds (condition 4). */
  agreeing: SpaceId[];
}

export interface DivergenceEvidence {
  alerts: readonly DivergenceAlert[];
  /** Memories in the recent window compared with. */
  windowSize: number;
  /** Captures and recalls earlier in the current session (this one not counted). */
  earlierActions: number;
  /**
   * The meaning similarity below which condition 3 holds, when the engine moved the lines to its
   * encoder's cosine scale (workers/engine-encoder-scale.ts: USE-lite's 0.25 is 0.11 on MiniLM's).
   * Absent: the E1 alert's threshold minus `meaningMargin` (USE-lite's scale, where they were set).
   */
  meaningLine?: number;
}

/** The gate: show the alert only when the evidence is strong (see the rule above). */
export function divergenceVerdict(e: DivergenceEvidence, rule: DivergenceGateRule = DIVERGENCE_GATE): DivergenceVerdict {
  const agreeing = e.alerts.map((a) => a.embedder).filter((id) => rule.agreeingSpaces.includes(id));
  const quiet = (reason: DivergenceReason): DivergenceVerdict => ({ show: false, reason, agreeing });
  if (e.alerts.length === 0) return quiet('no-alerts');
  if (e.windowSize < rule.minWindow) return quiet('window-too-small');
  if (e.earlierActions < rule.minEarlierActions) return quiet('session-just-started');
  const meaning = e.alerts.find((a) => a.embedder === rule.meaningSpace);
  // strictly below threshold - margin (0.25 itself is close with the defaults), or the engine's line on its encoder's scale
  const line = e.meaningLine ?? (meaning ? meaning.threshold - rule.meaningMargin : 0);
  if (!meaning || !(meaning.similarity < line)) return quiet('meaning-close');
  if (agreeing.length < rule.minAgreeing) return quiet('too-few-spaces');
  return { show: true, reason: 'strong', agreeing };
}

// ---- The topic of the recent work: what the banner names, and what a Dismiss holds for ----------

/**
 * A dismissed alert stays quiet while the recent work is on the same topic: the unit centroid of
 * the window's meaning vectors (E1) points the same way. 0.8: adding or dropping one memory of a
 * topic moves the centroid of a 2-4 memory window by a cosine of 0.85-0.97 (measured on the
 * session scripts); windows on different topics are 0.2-0.6 apart.
 */
export const SAME_TOPIC_COSINE = 0.8;

/** Unit mean of the vectors (null when there are none or they cancel out). */
export function topicCentroid(vectors: readonly Float32Array[]): Float32Array | null {
  if (vectors.length === 0) return null;
  const dim = vectors[0].length;
  const c = new Float32Array(dim);
  for (const v of vectors) {
    if (v.length !== dim) continue;
    for (let i = 0; i < dim; i++) c[i] += v[i];
  }
  let n = 0;
  for (let i = 0; i < dim; i++) n += c[i] * c[i];
  n = Math.sqrt(n);
  if (!(n > 1e-9)) return null;
  for (let i = 0; i < dim; i++) c[i] /= n;
  return c;
}

/**
 * Is the recent work still on the dismissed topic? Compared by centroid when both have one, else
 * by the memories (at least half of the dismissed window still in the current one).
 */
export function sameTopic(
  a: { centroid: Float32Array | null; ids: readonly string[] },
  b: { centroid: Float32Array | null; ids: readonly string[] },
  threshold = SAME_TOPIC_COSINE,
): boolean {
  if (a.centroid && b.centroid && a.centroid.length === b.centroid.length) return cosine(a.centroid, b.centroid) >= threshold;
  if (a.ids.length === 0) return false;
  const bs = new Set(b.ids);
  return a.ids.filter((id) => bs.has(id)).length * 2 >= a.ids.length;
}

/**
 * The recent work in a few words: the tags that at least half of the window carries (at least
 * two memories when the window has two or more; explicit tags before suggested ones, most shared
 * first, at most three), else the first words of the memory nearest the window's centroid (the
 * newest when there are no vectors).
 */
export function topicWords(
  recentWork: readonly { text: string; tags?: readonly string[]; suggestedTags?: readonly string[]; vector?: Float32Array | null }[],
  centroid: Float32Array | null = null,
  maxChars = 60,
): string {
  if (recentWork.length === 0) return '';
  const need = Math.max(recentWork.length >= 2 ? 2 : 1, Math.ceil(recentWork.length / 2));
  const count = (pick: (m: (typeof recentWork)[number]) => readonly string[] | undefined) => {
    const n = new Map<string, number>();
    for (const m of recentWork) for (const t of new Set(pick(m) ?? [])) n.set(t, (n.get(t) ?? 0) + 1);
    return [...n].filter(([, c]) => c >= need).sort((x, y) => y[1] - x[1] || (x[0] < y[0] ? -1 : 1)).map(([t]) => t);
  };
  const tags = [...count((m) => m.tags)];
  for (const t of count((m) => m.suggestedTags)) if (!tags.includes(t)) tags.push(t);
  if (tags.length > 0) return joinWords(tags.slice(0, 3).map((t) => t.replace(/-/g, ' ')));
  let pick = recentWork[0];
  if (centroid) {
    let best = -Infinity;
    for (const m of recentWork) {
      if (!m.vector || m.vector.length !== centroid.length) continue;
      const s = cosine(m.vector, centroid);
      if (s > best) {
        best = s;
        pick = m;
      }
    }
  }
  return firstWords(pick.text, maxChars);
}

function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** The first line, cut at a word boundary to at most maxChars, with "…" when cut. */
export function firstWords(text: string, maxChars = 60): string {
  const line = (text.split('\n').find((l) => l.trim()) ?? '').replace(/\s+/g, ' ').trim();
  if (line.length <= maxChars) return line;
  const cut = line.slice(0, maxChars);
  const space = cut.lastIndexOf(' ');
  return `${(space > maxChars / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}
