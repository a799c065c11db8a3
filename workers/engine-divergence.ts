// The engine's divergence of a memory or query from recent work (EngineCore.divergence and the
// recall's): the recent window through the status gate, the per-space alerts, the best figures
// behind "details" and the topic the banner names. Split from engine-core.ts (one job per file).
import { isRecallable } from '../src/core/status';
import { divergenceAlerts, type PipelineContext, type SpaceIndex } from '../src/core/pipeline';
import type { HybridIndex } from '../src/core/hybrid';
import {
  bestSimilarities,
  selectRecentWindow,
  topicCentroid,
  topicWords,
  TEMPORAL_SPACES,
  type SimilarityConfig,
  type SpaceFeatures,
} from '../src/core/spaces';
import type { MemoryId } from '../src/core/types';
import type { EngineDivergenceOutcome } from '../src/protocol/engine';
import { divergenceOnEncoderScale } from './engine-encoder-scale';
import { createdBetween } from './engine-created';

export { createdBetween };

/** Divergence compares content only: the temporal spaces stay excluded whatever the settings say. */
function contentOnly(c: SimilarityConfig): SimilarityConfig {
  const excluded = { ...c.excluded };
  for (const s of TEMPORAL_SPACES) excluded[s] = true;
  return { ...c, excluded };
}

export interface DivergenceSource {
  hybrid: HybridIndex;
  spaces: SpaceIndex;
  meta: ReadonlyMap<MemoryId, { createdAt: number; sessionId: string }>;
  similarity: SimilarityConfig;
  /** The pipeline context at `now` (the engine's, without the neighbour matrix). */
  context: (now: number) => PipelineContext;
  /** The encoder whose vectors the engine holds: the encoder spaces' lines move to its scale. */
  encoder?: string;
}

/**
 * Divergence of `features` from the recent window (the current session within the last
 * recentWindowHours, else that time window), in content spaces only.
 */
export function recentDivergence(src: DivergenceSource, features: SpaceFeatures, q: { now: number; sessionId: string; excludeId?: MemoryId }): EngineDivergenceOutcome {
  const hybrid = src.hybrid;
  const scaled = divergenceOnEncoderScale(contentOnly(src.similarity), src.encoder);
  const config = scaled.config;
  const since = q.now - config.recentWindowHours * 3_600_000;
  const candidates: { id: MemoryId; text: string; createdAt: number; sessionId: string }[] = [];
  // the memories created in [since, now], in meta's order (this runs on every recall: no pass over all of them)
  for (const id of createdBetween(hybrid, src.meta, since, q.now)) {
    if (id === q.excludeId) continue;
    const d = hybrid.peek(id); // read only, no copy
    // the status gate (never deleted, archived or quarantined), and no earlier version of an edited memory
    if (!d || !isRecallable(d, {}) || d.supersededBy !== undefined) continue;
    const m = src.meta.get(id)!;
    candidates.push({ id, text: d.text, createdAt: m.createdAt, sessionId: m.sessionId });
  }
  const recent = selectRecentWindow(candidates, q.now, q.sessionId, config);
  // the temporal spaces never take part, whatever the settings say (a copy: the caller's set stays whole)
  const current: SpaceFeatures = { ...features };
  for (const s of TEMPORAL_SPACES) delete current[s];
  const alerts = divergenceAlerts(src.context(q.now), current, recent, { now: q.now, currentSessionId: q.sessionId, config });
  // the figures behind "details" and the topic the banner names / a Dismiss holds for
  const rows: { features: SpaceFeatures }[] = [];
  const recentWork: { text: string; tags: string[]; suggestedTags?: string[]; vector: Float32Array | null }[] = [];
  for (const m of recent) {
    const f = src.spaces.features(m.id);
    if (f) rows.push({ features: f });
    const d = hybrid.doc(m.id);
    recentWork.push({ text: m.text, tags: d?.tags ?? [], suggestedTags: d?.suggestedTags, vector: d?.vector ?? null });
  }
  const best = bestSimilarities(current, rows);
  for (const s of TEMPORAL_SPACES) delete best[s];
  const centroid = topicCentroid(recentWork.flatMap((w) => (w.vector ? [w.vector] : [])));
  return {
    alerts,
    best,
    topic: { words: topicWords(recentWork, centroid), centroid },
    hours: config.recentWindowHours,
    recent,
    ...(scaled.meaningLine !== undefined ? { meaningLine: scaled.meaningLine } : {}),
    ...(scaled.lines ? { lines: scaled.lines } : {}),
  };
}
