// Cognitive profiles: named presets of recall options. The five names come from the
// lateral-retrieval design, which fixes one thing about them: lateral mode is on in DIVERGENT only
// (for being stuck or brainstorming; DEBUGGING / CRITICAL for precise recall, SYSTEMATIZER for
// building a knowledge base, BALANCED for the rest). The other values of each preset are ours.
// Each preset has one behaviour you can name and test; any option the caller sets explicitly
// overrides the preset's value.

export const CognitiveProfile = {
  BALANCED: 'BALANCED',
  DIVERGENT: 'DIVERGENT',
  DEBUGGING: 'DEBUGGING',
  CRITICAL: 'CRITICAL',
  SYSTEMATIZER: 'SYSTEMATIZER',
} as const;
export type CognitiveProfile = (typeof CognitiveProfile)[keyof typeof CognitiveProfile];

export const PROFILE_NAMES: readonly CognitiveProfile[] = Object.values(CognitiveProfile);

export type GroupBy = 'none' | 'tag';

/** The option values a profile presets. Everything here is plain data. */
export interface ProfilePreset {
  /** One sentence: what this profile does differently. */
  readonly behaviour: string;
  readonly topK: number;
  readonly lateralMode: boolean;
  /** Hybrid weights the engine applies (lexical + semantic = 1). */
  readonly lexicalWeight: number;
  /** Pool size the engine fetches = topK * candidateMultiplier. */
  readonly candidateMultiplier: number;
  /** 0 = importance ignored; w -> score *= (1 - w) + w * importance. */
  readonly importanceWeight: number;
  /** Absolute floor on the fused standard score (the engine's fused scale, expected 0..1). */
  readonly minScore: number;
  /** Floor relative to the best standard score (0..1): keep hits >= minRelativeScore * best. */
  readonly minRelativeScore: number;
  /** Drop hits without any lexical match when at least one hit matched lexically. */
  readonly requireLexicalMatch: boolean;
  /** Quarantined memories are never returned, whatever the caller asks. */
  readonly forbidQuarantined: boolean;
  readonly groupBy: GroupBy;
}

export const PROFILES: Readonly<Record<CognitiveProfile, ProfilePreset>> = {
  BALANCED: {
    behaviour: 'Everyday recall: words and meaning count equally; no lateral results (only Divergent adds those); no grouping.',
    topK: 10,
    lateralMode: false,
    lexicalWeight: 0.5,
    candidateMultiplier: 5,
    importanceWeight: 0,
    minScore: 0,
    minRelativeScore: 0,
    requireLexicalMatch: false,
    forbidQuarantined: false,
    groupBy: 'none',
  },
  DIVERGENT: {
    behaviour: 'Lateral retrieval on: distant memories sharing tags are appended; semantic-leaning hybrid.',
    topK: 10,
    lateralMode: true,
    lexicalWeight: 0.3,
    candidateMultiplier: 5,
    importanceWeight: 0,
    minScore: 0,
    minRelativeScore: 0,
    requireLexicalMatch: false,
    forbidQuarantined: false,
    groupBy: 'none',
  },
  DEBUGGING: {
    behaviour:
      'Precise: lexical-heavy hybrid (0.8/0.2); hits with no lexical match are dropped when any hit matched lexically; no lateral.',
    topK: 10,
    lateralMode: false,
    lexicalWeight: 0.8,
    candidateMultiplier: 5,
    importanceWeight: 0,
    minScore: 0,
    minRelativeScore: 0,
    requireLexicalMatch: true,
    forbidQuarantined: false,
    groupBy: 'none',
  },
  CRITICAL: {
    behaviour:
      'Strict: score scaled by importance (0.5 + 0.5 * importance), hits below half the best score dropped, quarantined never returned.',
    topK: 10,
    lateralMode: false,
    lexicalWeight: 0.5,
    candidateMultiplier: 5,
    importanceWeight: 0.5,
    minScore: 0,
    minRelativeScore: 0.5,
    requireLexicalMatch: false,
    forbidQuarantined: true,
    groupBy: 'none',
  },
  SYSTEMATIZER: {
    behaviour: 'Broad: topK 25 from a larger pool, results grouped by their primary tag.',
    topK: 25,
    lateralMode: false,
    lexicalWeight: 0.4,
    candidateMultiplier: 4,
    importanceWeight: 0,
    minScore: 0,
    minRelativeScore: 0,
    requireLexicalMatch: false,
    forbidQuarantined: false,
    groupBy: 'tag',
  },
};

export function isCognitiveProfile(v: unknown): v is CognitiveProfile {
  return typeof v === 'string' && (PROFILE_NAMES as readonly string[]).includes(v);
}
