// Cosine lines set on USE-lite's scale, moved to the scale of the encoder whose vectors the engine
// holds (src/embed/encoders.ts `cosineKnots`: the same share of memory pairs clears the line):
// - the associative step's default minimum cosine, 0.72 (0.587 for MiniLM), unless the person set one;
// - the divergence alert's lines in the encoder's spaces (E1, E5, E10: low threshold 0.30, 0.145 for
//   MiniLM) and the gate's meaning line (0.30 - SCALED_MEANING_MARGIN = 0.28, 0.131 for MiniLM),
//   unless the person changed that space's low threshold. On USE-lite's lines MiniLM's lower cosines
//   raised the alert on 8.6% of the session scripts' same-work steps (USE-lite: 2.9%); moved, 2.9%
//   (src/core/spaces/README.md).
import { BASE_DEFAULTS, type RecallOptionsInput } from '../src/core/recall';
import { DEFAULT_SIMILARITY_CONFIG, DIVERGENCE_GATE, type SimilarityConfig } from '../src/core/spaces';
import type { SpaceId } from '../src/core/types';
import { encoderMeta, onEncoderScale } from '../src/embed/encoders';
import { ENCODER_SPACES } from '../src/protocol/embed';

export function withEncoderMinCosine(input: RecallOptionsInput, encoder: string | undefined): RecallOptionsInput {
  const meta = encoder ? encoderMeta(encoder) : undefined;
  if (!meta || input.minCosine !== undefined) return input;
  return { ...input, minCosine: onEncoderScale(meta, BASE_DEFAULTS.minCosine) };
}

/**
 * The gate's meaning margin below the moved E1 line, in USE-lite cosine before the move (USE-lite
 * itself keeps DIVERGENCE_GATE.meaningMargin, 0.05). Chosen on MiniLM with
 * `npx tsx scripts/measure-explore.ts --lines`: 0.05 (line 0.110) kept same-work alerts at 2.9% but
 * caught fewer different-topic steps than USE-lite (sample 38.1% vs 43.9%); 0.02 (line 0.131)
 * matches USE-lite on all four figures (same work 2.9%, on topic 0%, off topic 58.8% / 43.6%);
 * 0 (line 0.145) catches more (64.7% / 46.9%) with on-topic steps at 0.15, too near the line.
 */
export const SCALED_MEANING_MARGIN = 0.02;

/**
 * The similarity settings the divergence runs with on `encoder`'s scale, and the gate's meaning
 * line there (undefined: nothing moved, the gate uses threshold - margin on USE-lite's scale).
 */
export function divergenceOnEncoderScale(
  config: SimilarityConfig,
  encoder: string | undefined,
): { config: SimilarityConfig; meaningLine?: number; lines?: Partial<Record<SpaceId, number>> } {
  const meta = encoder ? encoderMeta(encoder) : undefined;
  if (!meta?.cosineKnots) return { config };
  const base = DEFAULT_SIMILARITY_CONFIG.lowThresholds;
  const low = { ...config.lowThresholds };
  for (const s of ENCODER_SPACES) if (low[s] === base[s]) low[s] = onEncoderScale(meta, base[s]);
  const moved = low[DIVERGENCE_GATE.meaningSpace] !== config.lowThresholds[DIVERGENCE_GATE.meaningSpace];
  return {
    config: { ...config, lowThresholds: low },
    lines: Object.fromEntries(ENCODER_SPACES.map((s) => [s, low[s]])),
    ...(moved ? { meaningLine: onEncoderScale(meta, base[DIVERGENCE_GATE.meaningSpace] - SCALED_MEANING_MARGIN) } : {}),
  };
}
