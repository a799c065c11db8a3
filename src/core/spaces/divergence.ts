// Divergence detection: the current item diverges in a space when even
// its BEST similarity to the recent memories falls strictly below that space's low threshold.
//
// Design: the caller compares the current item with each recent memory (spaceSimilarities
// in src/features, or any other source) and passes one `SpaceSims` per recent memory, plus a
// short summary of what the recent activity was. Keeping vectors out of this function keeps
// it pure arithmetic and lets callers reuse similarities they already computed for ranking.
//
// Which spaces: the thirteen-spaces design's divergence algorithm checks all ten non-temporal
// spaces (E1, E5-E13), while its acceptance example and its alert note name only the semantic
// ones (E1, E5-E7, E10, E12, E13: not E8, E9, E11). We follow the algorithm (every non-excluded space
// per the config), and the alert text names the spaces actually checked.
// A space no recent memory has (or the current item lacks) cannot diverge: no alert for it.

import type { SpaceId } from '../types';
import { DEFAULT_SIMILARITY_CONFIG, activeEmbedders, type SimilarityConfig } from './config';
import { SPACES, SPACE_IDS, spaceLabel } from './registry';
import { spaceSimilarities, type SpaceFeatures } from './features';
import type { SpaceSims } from './relevance';
import { containmentSparse, entitySimilarity, setContainment } from './similarity';
import type { EntityFeatures, SparseVector } from './vectors';

export interface DivergenceAlert {
  embedder: SpaceId;
  embedderName: string;
  /** Max similarity of the current item to any recent memory in this space. */
  similarity: number;
  threshold: number;
  /** Brief summary of what the recent activity was. */
  recentMemorySummary: string;
  /** threshold - similarity (> 0). */
  divergenceMagnitude: number;
  /** "Low semantic similarity to recent activity". */
  message: string;
}

export interface DivergenceOptions {
  config?: SimilarityConfig;
  warn?: (message: string) => void;
  log?: (message: string) => void;
}

export const NO_RECENT_MESSAGE = 'Skipping divergence detection: no recent memories';

/**
 * @param recent one entry per recent memory: the current item's similarity to it, per space.
 * @param recentSummary what the recent activity was (see summarizeRecent).
 */
export function detectDivergence(
  recent: readonly SpaceSims[],
  recentSummary: string,
  options: DivergenceOptions = {},
): DivergenceAlert[] {
  const config = options.config ?? DEFAULT_SIMILARITY_CONFIG;
  const warn = options.warn ?? ((m: string) => console.warn(m));
  if (recent.length === 0) {
    (options.log ?? ((m: string) => console.info(m)))(NO_RECENT_MESSAGE);
    return [];
  }
  const alerts: DivergenceAlert[] = [];
  for (const id of SPACE_IDS) {
    if (config.excluded[id]) continue;
    let max = -Infinity;
    for (const sims of recent) {
      const s = sims[id];
      if (s === undefined) continue;
      let v = s;
      if (!Number.isFinite(v)) {
        warn(`Invalid embedding value in ${spaceLabel(id)}`);
        v = 0;
      }
      if (v > max) max = v;
    }
    if (max === -Infinity) continue; // absent everywhere: nothing to compare
    const threshold = config.lowThresholds[id];
    if (max < threshold) {
      alerts.push({
        embedder: id,
        embedderName: SPACES[id].name,
        similarity: max,
        threshold,
        recentMemorySummary: recentSummary,
        divergenceMagnitude: threshold - max,
        message: `Low ${SPACES[id].name.toLowerCase()} similarity to recent activity`,
      });
    }
  }
  return alerts;
}

/** A one-line summary of recent activity: the newest text, cut to `maxChars` at a word boundary. */
export function summarizeRecent(texts: readonly string[], maxChars = 80): string {
  const first = (texts[0] ?? '').replace(/\s+/g, ' ').trim();
  if (first.length <= maxChars) return first;
  const cut = first.slice(0, maxChars);
  const space = cut.lastIndexOf(' ');
  return `${(space > maxChars / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** Compact "E1, E5-E13" from a list of space ids. */
export function formatSpaceRanges(ids: readonly SpaceId[]): string {
  const nums = ids.map((id) => Number(id.slice(1))).sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < nums.length; ) {
    let j = i;
    while (j + 1 < nums.length && nums[j + 1] === nums[j] + 1) j++;
    parts.push(j > i ? `E${nums[i]}-E${nums[j]}` : `E${nums[i]}`);
    i = j + 1;
  }
  return parts.join(', ');
}

/**
 * The alert as text, in the design's format: "DIVERGENCE DETECTED", the recent activity, the
 * similarity against the threshold, "This may indicate a context switch.", and the spaces checked.
 */
export function formatDivergenceAlert(alert: DivergenceAlert, config: SimilarityConfig = DEFAULT_SIMILARITY_CONFIG): string {
  const checked = formatSpaceRanges(activeEmbedders(config));
  const skipped = formatSpaceRanges(SPACE_IDS.filter((id) => config.excluded[id]));
  const lines = [
    'DIVERGENCE DETECTED',
    `Recent activity in ${alert.embedderName} space: "${alert.recentMemorySummary}"`,
    `Current appears different - similarity: ${alert.similarity.toFixed(2)} (threshold: ${alert.threshold.toFixed(2)})`,
    'This may indicate a context switch.',
    '',
    `Note: Divergence is only detected in non-temporal spaces (${checked}).`,
  ];
  if (skipped) lines.push(`Temporal spaces (${skipped}) are not considered for divergence alerts.`);
  return lines.join('\n');
}

/**
 * The similarities divergence compares with the low thresholds. Same as ranking
 * (spaceSimilarities) except where a set / term-bag measure punishes a length difference that
 * says nothing about a topic change: Jaccard of a four-word query against a long memory on the
 * same topic is ~0.15 (below E6 / E13's 0.20), and a capture naming one person against a memory
 * naming three is 1/3. There the question "is the current item still on the recent topic?" is
 * answered by containment of the SHORTER side in the longer:
 *   E6, E13: containmentSparse (the lighter side's term weight found in the other side);
 *   E11: max(entitySimilarity, overlap |A ∩ B| / min(|A|, |B|)).
 * A real topic switch shares no terms / entities and still scores ~0.
 */
export function divergenceSimilarities(
  current: SpaceFeatures,
  memory: SpaceFeatures,
  warn?: (message: string) => void,
): SpaceSims {
  const out = spaceSimilarities(current, memory, { warn });
  for (const id of ['E6', 'E13'] as const) {
    const a = current[id];
    const b = memory[id];
    if (a && b) out[id] = containmentSparse(a as SparseVector, b as SparseVector, { space: id, warn });
  }
  const ea = current.E11 as EntityFeatures | undefined;
  const eb = memory.E11 as EntityFeatures | undefined;
  if (ea && eb) out.E11 = Math.max(entitySimilarity(ea, eb, { space: 'E11', warn }), setContainment(ea.entities, eb.entities));
  return out;
}

/**
 * detectDivergence from features: compares `current` with each recent memory through the
 * registry's similarity functions and summarises the recent activity from the newest text.
 * `recent` as selectRecentWindow returns it (newest first).
 */
export function detectFeatureDivergence(
  current: SpaceFeatures,
  recent: readonly { features: SpaceFeatures; text: string }[],
  options: DivergenceOptions = {},
): DivergenceAlert[] {
  const sims = recent.map((m) => divergenceSimilarities(current, m.features, options.warn));
  return detectDivergence(sims, summarizeRecent(recent.map((m) => m.text)), options);
}

/**
 * The current item's best similarity to the recent window in each space (the figures behind the
 * alert's "details"; divergenceSimilarities, so the same numbers the alerts compare). A space no
 * recent memory (or the current item) has is absent.
 */
export function bestSimilarities(
  current: SpaceFeatures,
  recent: readonly { features: SpaceFeatures }[],
  warn?: (message: string) => void,
): SpaceSims {
  const best: SpaceSims = {};
  for (const m of recent) {
    const s = divergenceSimilarities(current, m.features, warn);
    for (const id of SPACE_IDS) {
      const v = s[id];
      if (v === undefined || !Number.isFinite(v)) continue;
      const b = best[id];
      if (b === undefined || v > b) best[id] = v;
    }
  }
  return best;
}
