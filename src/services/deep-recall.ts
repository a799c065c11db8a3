// Deep search around a recall (seed 003, phases 2-3 and F), over the engine's escalation:
//   before   the adaptive mode's threshold for the query's category (setting deepAdaptive), and the
//            weights the scorer learned from deep hits (setting deepScorer): the lexical weight as
//            the recall's option (unless the caller chose one, or a fusion), the space weights with
//            the engine query
//   after    the escalation logged (deepSearchLog, with the category), the category's history of
//            hits updated, the recalls with deep search on counted per day (deepSearchRecalls: the
//            dashboard's invocation rate), and the deep hits remembered as training pairs
//   feedback a remembered deep hit the person opens or reinforces trains the scorer once (learn.ts)
// None of it ever fails a recall: a storage failure is reported and the recall goes on.

import {
  adaptiveHistoryFrom,
  adaptiveThreshold,
  countRecall,
  initialWeights,
  isHit,
  learnFromPair,
  queryCategory,
  recordEscalation,
  scorerWeightsFrom,
  summariseDeepLog,
  type DeepReportView,
  type DeepStats,
  type QueryCategory,
  type ScorerWeights,
  type TrainingPair,
} from '../core/deep';
import { calibrationFor, DEFAULT_RANKING } from '../core/pipeline';
import type { RecallOptions, RecallOptionsInput } from '../core/recall';
import type { MemoryId, SpaceId } from '../core/types';
import { getSetting, putSetting } from '../db/repo';
import type { PipelineResult } from '../core/pipeline';
import type { ServiceContext } from './context';

export const DEEP_SETTING_KEYS = { adaptive: 'deepAdaptive', scorer: 'deepScorer', recalls: 'deepSearchRecalls' } as const;

/** Training pairs remembered from recent recalls (the newest win), waiting for an open or a reinforce. */
const MAX_PENDING_PAIRS = 100;

export interface DeepPrepared {
  asked: RecallOptionsInput;
  spaceWeights?: Partial<Record<SpaceId, number>>;
  category: QueryCategory;
}

export interface DeepLearningView {
  /** Pairs learned so far, and the weights now used (null: nothing learned, the shipped weights). */
  weights: ScorerWeights | null;
  base: { lexicalWeight: number; spaceWeights: Partial<Record<SpaceId, number>> };
}

export function createDeepRecall(ctx: ServiceContext) {
  const { db } = ctx;
  const pending = new Map<MemoryId, TrainingPair>();
  const baseSpaces = (): Partial<Record<SpaceId, number>> => ({ ...DEFAULT_RANKING.spaceWeights, ...calibrationFor(ctx.embedder.info().id).ranking.spaceWeights });
  const safely = async (f: () => Promise<void>) => {
    try {
      await f();
    } catch (e) {
      ctx.report(e);
    }
  };

  async function readWeights(): Promise<ScorerWeights | null> {
    return scorerWeightsFrom(await getSetting<unknown>(db, DEEP_SETTING_KEYS.scorer), baseSpaces());
  }

  return {
    /**
     * The options the engine gets: the adaptive threshold and the learned weights applied. `given`:
     * the saved defaults with the request's options over them (a lexical weight or a fusion chosen
     * there wins over the learned one).
     */
    async prepare(text: string, asked: RecallOptionsInput, resolved: RecallOptions, given: RecallOptionsInput = asked): Promise<DeepPrepared> {
      const category = queryCategory(text);
      let out = asked;
      const ds = resolved.deepSearch;
      if (ds.mode === 'adaptive') {
        const history = adaptiveHistoryFrom(await getSetting<unknown>(db, DEEP_SETTING_KEYS.adaptive));
        // the fields given (not the resolved ones: a weight left unset stays unset, so the judge reader's merge weight applies)
        out = { ...out, deepSearch: { ...(given.deepSearch ?? {}), mode: ds.mode, threshold: adaptiveThreshold(ds.threshold, history, category) } };
      }
      const learned = await readWeights();
      if (!learned || learned.pairs === 0) return { asked: out, category };
      if (given.lexicalWeight === undefined && given.fusion === undefined) out = { ...out, lexicalWeight: learned.lexicalWeight };
      return { asked: out, spaceWeights: learned.spaceWeights, category };
    },

    /** After the engine answered (see the header). */
    async after(report: DeepReportView | undefined, mode: RecallOptions['deepSearch']['mode'], q: { text: string; at: number; sessionId: string; category: QueryCategory }, results: readonly PipelineResult[]): Promise<void> {
      if (mode === 'off') return;
      await safely(async () => {
        const per = ((await getSetting<Record<string, number>>(db, DEEP_SETTING_KEYS.recalls)) ?? {}) as Record<string, number>;
        await putSetting(db, DEEP_SETTING_KEYS.recalls, countRecall(per, q.at));
      });
      if (!report) return;
      await safely(() => logDeepSearch(db, report, q));
      if (report.status === 'shadow' || report.status === 'merged' || report.status === 'timeout' || report.status === 'error')
        await safely(async () => {
          const h = adaptiveHistoryFrom(await getSetting<unknown>(db, DEEP_SETTING_KEYS.adaptive));
          await putSetting(db, DEEP_SETTING_KEYS.adaptive, recordEscalation(h, q.category, isHit(report.primaryIds, report.scores)));
        });
      rememberPairs(report, results);
    },

    /** A memory was opened or reinforced: when it was a deep hit of a recent recall, the scorer learns from it (once). */
    async noteOpened(id: MemoryId): Promise<boolean> {
      const pair = pending.get(id);
      if (!pair) return false;
      pending.delete(id);
      let learned = false;
      await safely(async () => {
        const base = baseSpaces();
        const w = (await readWeights()) ?? initialWeights(0.5, base);
        await putSetting(db, DEEP_SETTING_KEYS.scorer, learnFromPair(w, pair, base));
        learned = true;
      });
      return learned;
    },

    /** The dashboard's figures over the last `days` days (default 14). */
    async deepSearchStats(days = 14): Promise<DeepStats & { history: ReturnType<typeof adaptiveHistoryFrom>; learning: DeepLearningView }> {
      const rows = await db.deepSearchLog.where('at').above(ctx.now() - days * 86_400_000).toArray();
      const per = ((await getSetting<Record<string, number>>(db, DEEP_SETTING_KEYS.recalls)) ?? {}) as Record<string, number>;
      const stats = summariseDeepLog(rows, per, ctx.now(), days);
      const history = adaptiveHistoryFrom(await getSetting<unknown>(db, DEEP_SETTING_KEYS.adaptive));
      const weights = await readWeights();
      return { ...stats, history, learning: { weights, base: { lexicalWeight: 0.5, spaceWeights: baseSpaces() } } };
    },
  };

  function rememberPairs(report: DeepReportView, results: readonly PipelineResult[]): void {
    if (report.status !== 'merged') return;
    const primary = new Set(report.primaryIds);
    const negative = [...results].reverse().find((r) => primary.has(r.id) && r.mode === 'standard');
    if (!negative) return;
    const side = (r: PipelineResult) => ({ lexical: r.why?.lexical ?? 0, vector: r.why?.semantic ?? 0, sims: r.spaces?.sims ?? {} });
    for (const r of results) {
      if (!r.deep || primary.has(r.id) || r.deep.via.length === 0) continue;
      pending.delete(r.id);
      pending.set(r.id, { positive: side(r), negative: side(negative), ways: r.deep.via.map((v) => v.strategy) });
    }
    while (pending.size > MAX_PENDING_PAIRS) pending.delete(pending.keys().next().value as MemoryId);
  }
}

/** One deep-search log row (schema v8's deepSearchLog). */
async function logDeepSearch(db: ServiceContext['db'], r: DeepReportView, q: { text: string; at: number; sessionId: string; category: QueryCategory }): Promise<void> {
  await db.deepSearchLog.add({
    at: q.at,
    sessionId: q.sessionId,
    query: q.text,
    category: q.category,
    status: r.status,
    mode: r.mode,
    confidence: r.confidence.value,
    threshold: r.threshold,
    primaryIds: r.primaryIds,
    pool: r.pool,
    scores: r.scores,
    timings: r.timings,
    ...(r.error ? { error: r.error } : {}),
  });
}

export type DeepRecall = ReturnType<typeof createDeepRecall>;
