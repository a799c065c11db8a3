// Fusion and blend settings calibrated per sentence encoder, shipped with it. Each encoder ranks
// differently (USE-lite finds little on LoCoMo, MiniLM much more), so the weights that balance
// words against meaning are measured per encoder on both dev files and kept here, keyed by the
// encoder id (the `model` of its vector rows). README.md ("Query-adaptive fusion") has the figures.

import type { ConfidenceModel } from '../deep/trigger';
import type { HybridConfig } from '../hybrid';
import { DEFAULT_JUDGE, type JudgeOptions } from './judge';
import type { RankingConfig } from './types';

export interface EncoderCalibration {
  /** Patched over DEFAULT_HYBRID_CONFIG when the engine builds its index. */
  hybrid: Partial<HybridConfig>;
  /** Patched over DEFAULT_RANKING for every recall. */
  ranking: Partial<RankingConfig>;
  /**
   * Deep search's trigger (src/core/deep/trigger.ts): the logistic model of P(the primary top 10
   * holds the answer) from the top score, the rank-1/rank-2 gap and the result count, fitted on both
   * dev files (README "Deep search trigger"). Absent = the seed's fixed blend.
   */
  confidence?: ConfidenceModel;
  /**
   * The second opinion (./judge.ts): the judge encoder's id and its depth / weight, applied after
   * the ranking (the app: in the refinement of the first answer) when that encoder's files are
   * present and the judge's vectors of the query and the top `depth` are at hand. Absent = no judge.
   */
  judge?: JudgeSpec;
}

/** Which judge re-scores an encoder's ranking, and how (src/embed's MPNET_JUDGE is the one built). */
export interface JudgeSpec extends JudgeOptions {
  id: string;
}

/** The judge's id (src/embed/encoders.ts MPNET_JUDGE.id; a test checks they agree). */
export const MPNET_JUDGE_CALIBRATION_ID = 'all-mpnet-base-v2-int8';

/** The ids of src/embed's encoders (the core cannot import src/embed; a test checks they agree). */
export const MINILM_CALIBRATION_ID = 'all-MiniLM-L6-v2-int8';
export const USE_LITE_CALIBRATION_ID = 'use-lite-en/v1';

export const CALIBRATIONS: Readonly<Record<string, EncoderCalibration>> = {
  [MINILM_CALIBRATION_ID]: {
    hybrid: { lexicalScore: 'coverage', coveragePower: 1.5 },
    // sessionContext 0.1 (README "Session context"): LoCoMo R@10 67.9 -> 70.0, nDCG 52.9 -> 54.0,
    // MRR 50.9 -> 51.6; paraphrase MRR 70.9 -> 71.1, top-1 60.2 -> 60.8 (0.05: 69.1 / 71.3; 0.15: 70.2 / 71.1)
    // late interaction 3 over the top 30 (idf among the top 100) and speaker labels 0.25 (README "Late
    // interaction", docs/research/quality.md; each half of both dev files tuned on the other): LoCoMo
    // R@10 70.0 -> 72.4, nDCG 54.0 -> 59.0; paraphrase MRR 71.1 -> 73.8, top-1 60.8 -> 62.9. Late
    // interaction needs token matrices (ctx.tokensOf, query.tokens): the app supplies them at query
    // time (src/services/late-refine.ts: the first answer is refined over the first pass's candidates,
    // the same depths as here, the eval's function src/embed/token-matrix.ts), so the eval's
    // appRanking row is what the app shows once refined. Late interaction divides by 1 + its weight
    // (the 0..1 scale kept), so speaker 0.25 after it ranks as score + 3 maxSim + 1 speaker (the lab's form).
    ranking: { evidencePower: 1, sessionContext: 0.1, lateInteraction: 3, lateDepth: 30, lateIdfDepth: 100, speakerLabel: 0.25 },
    // The trigger reads the FIRST pass (no token matrices: the scores the engine has when it decides,
    // the late-interaction refinement never escalates; docs/research/quality.md "Deep search, third
    // pass"). P(the answer shown, the refined top 10, holds every evidence memory), logistic over
    // top / gap / spread of the first pass (speaker labels on), both dev files weighted equally
    // (scripts/lab/deep-dump.ts + the fit there): AUC paraphrase 0.731, LoCoMo 0.762; below 0.3:
    // 0% / 3.0% of queries, below 0.5: 0% / 24%. Fitted on one half, the other: LoCoMo AUC 0.755 /
    // 0.758. The first fit (before speaker labels and late interaction: bias 0.731, top -4.43, gap
    // -0.928, spread 10.487) fired on 32% of LoCoMo's first passes and 44% of the refined ones.
    // count never varied on the dev files (10 results each), so it gets no weight.
    confidence: { bias: 1.644, top: -3.871, gap: -0.288, count: 0, spread: 8.975 },
    // MPNet's cosine over the refined top 30 at weight 0.25 (docs/research/quality.md, "Fourth pass"):
    // notes 92.7/77.3/73.6/62.6 -> 95.1/80.8/77.4/67.1, LoCoMo 72.4/59.0/57.6/47.5 -> 73.8/59.8/58.5/47.9
    // (R@10 / nDCG / MRR / top-1), up or equal on every half of both files.
    judge: { id: MPNET_JUDGE_CALIBRATION_ID, ...DEFAULT_JUDGE },
  },
  [USE_LITE_CALIBRATION_ID]: {
    hybrid: { lexicalScore: 'coverage', coveragePower: 1 },
    // speaker labels 0.25 (README "Late interaction"): LoCoMo 68.1/53.1/50.8 -> 69.5/55.5/53.8 (R@10 /
    // nDCG / MRR; both halves gain), notes unchanged (no labels). No token outputs: no late interaction.
    ranking: { evidencePower: 1, alpha: 0.3, speakerLabel: 0.25 },
    // the same fit over USE-lite's ranking with its speaker labels (no late interaction: the first
    // pass is the answer): AUC paraphrase 0.738, LoCoMo 0.730; below 0.3: 0% / 3.8%, below 0.5:
    // 0.3% / 27% (the first fit, before speaker labels, bias 0.553, top -3.161, gap 0.62, spread
    // 7.655, fired on 14% of LoCoMo; session context stays off: it cost the notes 0.3 MRR with USE-lite)
    confidence: { bias: 1.198, top: -3.321, gap: 0.891, count: 0, spread: 7.45 },
  },
};

/**
 * An encoder nobody measured (a hub model, a model from a folder): the neutral defaults, i.e.
 * DEFAULT_HYBRID_CONFIG and DEFAULT_RANKING as they are (BM25 min-max, no evidence scaling, no
 * session context) and the seed's fixed deep-search trigger. Each of MiniLM's settings was chosen
 * on MiniLM's own scores (the session neighbours' weight, the coverage discount, the logistic
 * trigger over its score scale); carried to another encoder's scale they are guesses, so an
 * unknown encoder runs what the design specifies until it is calibrated and given a record here.
 */
export const NEUTRAL_CALIBRATION: EncoderCalibration = Object.freeze({ hybrid: Object.freeze({}), ranking: Object.freeze({}) });

/**
 * The calibration of `encoderId`: its own record; absent (a caller that does not say, e.g. before
 * the engine's first load) = the default encoder's, MiniLM's; an id without a record = the
 * neutral defaults (NEUTRAL_CALIBRATION). Prototype keys ('toString') are ids without a record.
 */
export function calibrationFor(encoderId: string | undefined): EncoderCalibration {
  if (encoderId === undefined) return CALIBRATIONS[MINILM_CALIBRATION_ID];
  return Object.hasOwn(CALIBRATIONS, encoderId) ? CALIBRATIONS[encoderId] : NEUTRAL_CALIBRATION;
}
