// Reading: recall (the full pipeline, with everything the view shows in one engine call) and
// search (the plain hybrid, cheap, usable while the encoder loads).

import { AppError, isAborted, toAppError } from '../core/errors';
import { deserializeSpace } from '../core/spaces';
import { entitiesByHash } from '../db/entities';
import type { EngineRecallOutcome, EngineRecallQuery } from '../protocol/engine';
import type { MemoryId } from '../core/types';
import type { LanguageModel } from './language-model';
import { isShownHit } from '../core/hybrid';
import { MAX_AS_OF, MAX_DECAY_TAU_DAYS, MIN_AS_OF, resolveRecallOptions, type RecallOptionsInput } from '../core/recall';
import { normaliseTags } from '../core/validate';
import { bulkGetMemories, putSetting } from '../db/repo';
import type { EngineClient } from '../bridge/engine-bridge';
import { embedQueries, prepareForEmbedding } from '../embed/types';
import { logError, type ServiceContext } from './context';
import type { createDivergence } from './divergence';
import { explainHit } from './explain';
import type { DeepRecall } from './deep-recall';
import type { Feedback } from './feedback';
import type { Session } from './session';
import { readRecallDefaults, SETTING_KEYS } from './settings';
import type { StoredFeatures } from './stored-features';
import type { RecallOutcomeView, RecallQuery, RecallRequestOptions, RecallView, SearchOptions, SearchResultView } from './types';
import { calibrationFor, DEFAULT_RANKING } from '../core/pipeline';
import { createLateRefiner } from './late-refine';
import { createQueryCache } from './query-cache';
import { judgeFailed, type CarefulRanking } from './judge';
import { judgeAnswer, judgeable, widenForJudge, type CarefulNote } from './judge-refine';

export const MAX_TOP_K = 200;
export const DEFAULT_TOP_K = 20;

/**
 * An asOf instant from epoch ms or an ISO 8601 date / date-time ("2026-05-01", "2026-05-01T12:00Z";
 * a date alone is its UTC midnight). INVALID_OPTION with a plain message otherwise.
 */
export function parseAsOf(v: unknown): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const ms = typeof v === 'string' && /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v.trim()) ? Date.parse(v.trim()) : typeof v === 'number' ? v : NaN;
  if (!Number.isFinite(ms) || ms < MIN_AS_OF || ms > MAX_AS_OF)
    throw new AppError('INVALID_OPTION', `"As of" must be a date such as 2026-05-01 (or a time in epoch milliseconds); got ${JSON.stringify(v)}.`);
  return ms;
}

export function validateSearchOptions(o: unknown): Required<Pick<SearchOptions, 'topK'>> & Omit<SearchOptions, 'asOf'> & { asOf?: number } {
  if (o === undefined || o === null) return { topK: DEFAULT_TOP_K };
  if (typeof o !== 'object') throw new AppError('INVALID_OPTION', 'Search options must be an object.');
  const r = o as Record<string, unknown>;
  const topK = r.topK ?? DEFAULT_TOP_K;
  if (typeof topK !== 'number' || !Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K)
    throw new AppError('INVALID_OPTION', `topK must be a whole number from 1 to ${MAX_TOP_K}.`);
  for (const k of ['includeQuarantined', 'includeArchived', 'semantic'] as const)
    if (r[k] !== undefined && typeof r[k] !== 'boolean') throw new AppError('INVALID_OPTION', `${k} must be true or false.`);
  const asOf = parseAsOf(r.asOf);
  const tau = r.decayTauDays;
  if (tau !== undefined && (typeof tau !== 'number' || !Number.isFinite(tau) || tau < 0 || tau > MAX_DECAY_TAU_DAYS))
    throw new AppError('INVALID_OPTION', `decayTauDays must be a number of days from 0 (off) to ${MAX_DECAY_TAU_DAYS}; got ${JSON.stringify(tau)}.`);
  return {
    topK,
    includeQuarantined: r.includeQuarantined as boolean | undefined,
    includeArchived: r.includeArchived as boolean | undefined,
    ...(asOf !== undefined ? { asOf } : {}),
    ...(tau !== undefined && tau > 0 ? { decayTauDays: tau } : {}),
    semantic: r.semantic as boolean | undefined,
  };
}

/** A staged start is still attaching the stored features (no staged load told counts as warm). */
const engineLoading = (engine: EngineClient): boolean => (engine.loadProgress?.()?.stage ?? 'warm') !== 'warm';

/** Query tags take one route: a RecallQuery's tags or the option, normalised here, handed to the engine as the `queryTags` option. */
function queryTagsOf(q: RecallQuery, options: RecallOptionsInput): string[] | undefined {
  const raw = options.queryTags ?? q.tags; // explicit options win, as they did in the pipeline
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw) || raw.some((t) => typeof t !== 'string')) throw new AppError('INVALID_OPTION', 'Query tags must be a list of strings.');
  return normaliseTags([...raw]);
}

interface RetrievalDeps {
  engine: EngineClient;
  stored: StoredFeatures;
  session: Session;
  divergence: ReturnType<typeof createDivergence>;
  feedback: Pick<Feedback, 'noteReturned'>;
  languageModel: Pick<LanguageModel, 'modelTransformer'> & Partial<Pick<LanguageModel, 'deepModelReader'>>;
  deep: Pick<DeepRecall, 'prepare' | 'after'>;
  /** Told after each encoder change (the active encoder's `subscribe`): the kept query vectors and features are dropped. */
  onEncoderChange?: (fn: () => void) => () => void;
  /** Careful ranking (./judge.ts): the judge's last word on a refined answer; absent = none. */
  careful?: Pick<CarefulRanking, 'wanted' | 'prepare' | 'noteAnswer'> & Partial<Pick<CarefulRanking, 'deepJudge'>>;
}

/** The first pass's best few, whose words the offline transformer feeds back (RM3). */
const FEEDBACK_DOCS = 5;

export function createRetrieval(ctx: ServiceContext, { engine, stored, session, divergence, feedback, languageModel, deep, onEncoderChange, careful }: RetrievalDeps) {
  const { db, embedder, featurizer } = ctx;
  // a query's vector and features for the same text, from the same encoder and featurizers (./query-cache.ts)
  const queries = createQueryCache(() => `${ctx.embedder.info().id}\u0000${ctx.featurizer.lexicalId()}`);
  onEncoderChange?.(() => queries.clear());
  const aborted = (signal?: AbortSignal) => {
    if (signal?.aborted) throw new AppError('ABORTED');
  };
  // late interaction at query time (./late-refine.ts): token matrices cached in memory
  /** The late-interaction candidates of the last few answers shown (query + options -> ids), for their refinement. */
  const lateMemo = new Map<string, { ids: MemoryId[]; deep?: EngineRecallOutcome['deepSearch'] }>();
  const late = createLateRefiner({
    featurizer: () => ctx.featurizer,
    encoderId: () => ctx.embedder.info().id,
    textsOf: async (ids) => (await bulkGetMemories(db, [...ids])).map((m) => (m && m.deletedAt === null ? m.text : undefined)),
  });

  /** Embeds the bounded prefix of `text` (search's query vector); checks dimension and finiteness. */
  async function embedOne(text: string, signal?: AbortSignal): Promise<Float32Array> {
    const prepared = prepareForEmbedding(text).text;
    const vector = await queries.vector(prepared, async () => (await embedQueries(embedder, [prepared], signal))[0]!);
    const { dim } = embedder.info();
    if (!vector || vector.length !== dim) throw new AppError('INVALID_EMBEDDING', `The encoder returned ${vector?.length ?? 0} dimensions; expected ${dim}.`);
    for (let i = 0; i < vector.length; i++) if (!Number.isFinite(vector[i])) throw new AppError('INVALID_EMBEDDING');
    return vector;
  }

  /**
   * seed 001's query transformation: multiQuery's variants (the language model's when one is
   * configured, else the offline rewording with feedback from a plain first pass) and HyDE's
   * vector (the model's hypothetical answer, embedded; no model = no call). A model failure leaves
   * its part out and says why (`notice`); the recall itself never fails for it.
   */
  async function queryExtras(
    text: string,
    e1: Float32Array | null,
    o: { multiQuery: number; hyde: boolean; iterative: { maxIterations: number } | null },
    signal?: AbortSignal,
  ): Promise<Pick<EngineRecallQuery, 'variants' | 'hyde' | 'reformulations'> & { notice?: string }> {
    const out: Pick<EngineRecallQuery, 'variants' | 'hyde' | 'reformulations'> & { notice?: string } = {};
    const reformulations = o.iterative ? o.iterative.maxIterations - 1 : 0;
    if (o.multiQuery <= 1 && !o.hyde && reformulations <= 0) return out;
    const model = await languageModel.modelTransformer();
    const note = (err: unknown) => {
      if (isAborted(err) || signal?.aborted) throw new AppError('ABORTED');
      out.notice = toAppError(err).message;
    };
    /** n variants: the model's, each embedded, else the offline rewording fed back by a plain first pass. */
    const variantsOf = async (n: number): Promise<{ text: string; vector: Float32Array | null }[] | undefined> => {
      if (model) {
        const texts = await model.variants(text, n, { signal });
        const vectors = texts.length ? await embedQueries(embedder, texts.map((t) => prepareForEmbedding(t).text), signal) : []; // queries: the encoder's query path
        return texts.map((t, i) => ({ text: t, vector: vectors[i] ?? null }));
      }
      if (!featurizer.queryVariants) return undefined;
      const first = await engine.search({ text, vector: e1 }, { topK: FEEDBACK_DOCS }, signal);
      const docs = (await bulkGetMemories(db, first.map((h) => h.id))).flatMap((m) => (m ? [m.text] : []));
      return featurizer.queryVariants(text, n, docs, signal);
    };
    const n = Math.max(o.multiQuery - 1, reformulations);
    if (n > 0) {
      try {
        const vs = await variantsOf(n);
        // multiQuery's variants and iterative search's reformulations come from the one call
        if (vs && o.multiQuery > 1) out.variants = vs.slice(0, o.multiQuery - 1);
        if (vs && reformulations > 0) out.reformulations = vs.slice(0, reformulations);
      } catch (err) {
        note(err);
      }
    }
    if (o.hyde && model) {
      try {
        const answer = await model.hypothetical(text, { signal });
        if (answer) out.hyde = (await embedder.embed([prepareForEmbedding(answer).text], signal))[0] ?? null;
      } catch (err) {
        note(err);
      }
    }
    aborted(signal);
    return out;
  }

  /** The entity nodes named by the results' expansion edges. */
  async function entityNames(results: readonly { foundBy?: { via?: { entities: number[] }[] } }[]): Promise<RecallOutcomeView['entities']> {
    const hashes = results.flatMap((r) => r.foundBy?.via?.flatMap((v) => v.entities) ?? []);
    if (hashes.length === 0) return undefined;
    const out: NonNullable<RecallOutcomeView['entities']> = {};
    for (const e of await entitiesByHash(db, hashes)) out[e.hash] = { name: e.name, aliases: e.aliases, mentionCount: e.mentionCount };
    return out;
  }

  return {
    /**
     * The full recall: the query featurized (one embed-worker call), then ONE engine call that
     * runs the pipeline with `options` over the saved defaults and returns the divergence, the
     * evaluator's status and the labels of non-result memories the view names, then one bulk
     * read of the result memories. Invalid options reject with INVALID_OPTION naming the option.
     */
    async recall(query: string | RecallQuery, given: RecallRequestOptions = {}, signal?: AbortSignal): Promise<RecallOutcomeView> {
      const q = typeof query === 'string' ? { text: query } : query;
      if (!q || typeof q.text !== 'string') throw new AppError('INVALID_OPTION', 'The query must be text.');
      if (given === null || typeof given !== 'object') throw new AppError('INVALID_OPTION', 'Recall options must be an object.');
      // asOf as a date string ("2026-05-01", from a date control) becomes epoch ms here; numbers go to the core's check
      const { keywordsOnly: asKeywords, refine, ...rest } = given;
      // While the engine's staged start attaches the stored features, the answer is by words
      // (keyword results, `partial`; the view runs it again once warm): a half-attached engine
      // ranked by meaning loses the word matches and its hits lack the word-vector space the view
      // trusts meaning by, so it read as "Nothing close" until warm (issue 13). No query features:
      // the first answer does not wait for the encoder either.
      const keywordsOnly = asKeywords === true || engineLoading(engine);
      const options: RecallOptionsInput =
        typeof rest.asOf === 'string' ? { ...rest, asOf: parseAsOf(rest.asOf) ?? null } : (rest as RecallOptionsInput);
      const tags = queryTagsOf(q, options);
      const { queryTags: _routed, ...others } = options;
      const asked: RecallOptionsInput = tags ? { ...others, queryTags: tags } : others;
      const withDefaults = { ...(await readRecallDefaults(db)), ...asked };
      const resolved = resolveRecallOptions(withDefaults); // refuse bad options before any work
      aborted(signal);
      if (!q.text.trim()) return { results: [], divergence: null, lateralStatus: await engine.lateralStatus(), labels: {} };
      // a refinement is the query asked again (its first answer counted it): the session, deep
      // search's log and daily count, and the engine's evaluator and limiter count it once
      if (!refine) session.touch();
      // keywordsOnly: no query features (the encoder may still be loading); the pipeline ranks by words
      const features = keywordsOnly ? {} : await queries.features(q.text, () => featurizer.featurizeQuery(q.text, signal));
      aborted(signal);
      if (!keywordsOnly) stored.checkQuery(features);
      const e1 = features.E1 ? (deserializeSpace('E1', features.E1) as Float32Array) : null;
      const { notice, ...extras } = keywordsOnly ? { notice: undefined } : await queryExtras(q.text, e1, resolved, signal);
      const at = ctx.now();
      const prepared = await deep.prepare(q.text, asked, resolved, withDefaults); // adaptive threshold, learned weights
      aborted(signal);
      const engineQuery: EngineRecallQuery = { text: q.text, features, now: at, sessionId: session.idAt(at), ...extras, ...(prepared.spaceWeights ? { spaceWeights: prepared.spaceWeights } : {}), ...(refine ? { repeat: true } : {}) };
      // a refinement follows the answer shown: its candidates are remembered, so the engine runs once more, not twice
      const memoKey = JSON.stringify([q.text, prepared.asked, prepared.spaceWeights ?? null, extras]);
      const remembered = refine && !keywordsOnly ? lateMemo.get(memoKey) : undefined;
      // deep search reads with careful ranking's judge when it is on and ready (paid only if the query escalates)
      const judgeSource = !refine && resolved.deepSearch.mode !== 'off' ? careful?.deepJudge?.(q.text, signal) : undefined;
      // and with the language model on this computer when the person let it read deeper searches (no call unless it escalates)
      const modelSource = !refine && resolved.deepSearch.mode !== 'off' ? await languageModel.deepModelReader?.(q.text, resolved.deepSearch.timeoutMs, signal) : undefined;
      const first = remembered ? null : await engine.recall(engineQuery, prepared.asked, signal, judgeSource, ...(modelSource ? [modelSource] : []));
      const candidates = remembered?.ids ?? first?.lateCandidates;
      if (!refine && candidates) {
        lateMemo.delete(memoKey);
        lateMemo.set(memoKey, { ids: candidates, ...(first?.deepSearch ? { deep: first.deepSearch } : {}) });
        if (lateMemo.size > 8) lateMemo.delete(lateMemo.keys().next().value as string);
        careful?.noteAnswer(candidates); // careful ranking reads these memories next
      }
      // refine: late interaction over the first pass's candidates; any failure but a newer query's keeps the first answer
      let refined = false;
      let carefulNote: CarefulNote | undefined;
      let outcome = first;
      const t0 = performance.now();
      if (refine && !keywordsOnly && candidates) {
        try {
          const depth = calibrationFor(ctx.embedder.info().id).ranking.lateDepth ?? DEFAULT_RANKING.lateDepth;
          const tokens = await late.tokensFor(q.text, candidates, depth, signal);
          if (tokens) {
            // careful ranking (./judge-refine.ts): the engine gives the judge's depth, cut back to topK below
            const judge = judgeable(resolved) ? (careful?.wanted() ?? null) : null;
            const askedAgain = judge ? widenForJudge(prepared.asked, resolved, judge.depth) : prepared.asked;
            // the refinement never escalates (the engine skips it): the first pass's report stays, logged once
            const again = await engine.recall({ ...engineQuery, tokens }, askedAgain, signal);
            outcome = remembered?.deep ? { ...again, deepSearch: remembered.deep } : again;
            refined = true;
            if (judge) {
              const tj = performance.now();
              let ready: Awaited<ReturnType<NonNullable<typeof careful>['prepare']>> = null;
              try {
                ready = await careful!.prepare(q.text, outcome.results.filter((r) => r.mode === 'standard').map((r) => r.id), signal);
              } catch (e) {
                if (!judgeFailed(e, signal)) throw new AppError('ABORTED');
              }
              const j = judgeAnswer(outcome.results, resolved.topK, ready, performance.now() - tj);
              outcome = { ...outcome, results: j.results };
              carefulNote = j.note;
            }
          }
        } catch (e) {
          if (isAborted(e) || signal?.aborted) throw new AppError('ABORTED');
          logError(e, 'late interaction could not refine this answer; the first one stays');
        }
      }
      // a remembered first pass whose refinement failed: the first answer, run now (a repeat: nothing counted again)
      outcome ??= await engine.recall(engineQuery, prepared.asked, signal);
      // the evaluator counted the lateral results it returned: save its state (a failure never fails the recall)
      if (outcome.evaluator) await putSetting(db, SETTING_KEYS.evaluator, outcome.evaluator).catch((e: unknown) => ctx.report(e));
      // seed 003: every escalation is logged (shadow mode's whole purpose), the adaptive history and
      // the pairs for the scorer kept; a failure never fails the recall
      if (!refine) await deep.after(outcome.deepSearch, resolved.deepSearch.mode, { text: q.text, at, sessionId: session.idAt(at), category: prepared.category }, outcome.results);
      const rows = await bulkGetMemories(db, outcome.results.map((r) => r.id));
      aborted(signal);
      const entities = await entityNames(outcome.results);
      const results: RecallView[] = [];
      outcome.results.forEach((result, i) => {
        const memory = rows[i];
        // deleted between indexing and now: the index lags by one message at most
        if (!memory || memory.deletedAt !== null) return;
        feedback.noteReturned(result.id, result.mode);
        const via = result.foundBy?.via?.map((v) => ({
          seed: v.seed,
          entities: v.entities.map((hash) => ({ hash, name: entities?.[hash]?.name ?? 'a shared name' })),
        }));
        results.push({ result, memory, explanation: explainHit(result), ...(via ? { via } : {}) });
      });
      return {
        results,
        divergence: divergence.afterRecall(outcome, q.text, at),
        lateralStatus: outcome.lateralStatus,
        labels: outcome.labels,
        ...(keywordsOnly || outcome.partial ? { partial: true } : {}),
        // the first answer of a query late interaction can refine: the view asks again with `refine`
        ...(!refine && !keywordsOnly && !outcome.partial && outcome.lateCandidates && ctx.featurizer.tokens ? { refinable: true } : {}),
        ...(refined ? { refined: true, refineMs: Math.round(performance.now() - t0) } : {}),
        ...(carefulNote ? { careful: carefulNote } : {}),
        ...(notice ? { modelNotice: notice } : {}),
        ...(entities ? { entities } : {}),
        ...(outcome.deepSearch ? { deepSearch: outcome.deepSearch } : {}),
        ...(outcome.iterative ? { iterative: outcome.iterative } : {}),
      };
    },

    /**
     * The plain hybrid search (BM25 + E1), as before the spaces: cheap, and with `semantic: false`
     * it needs no encoder (while the model loads). recall() is the full pipeline.
     */
    async search(query: string, options?: SearchOptions, signal?: AbortSignal): Promise<SearchResultView[]> {
      const opts = validateSearchOptions(options);
      if (typeof query !== 'string') throw new AppError('INVALID_OPTION', 'The query must be text.');
      aborted(signal);
      if (!query.trim()) return [];
      const { semantic: _semantic, ...engineOpts } = opts;
      // the keyword half runs in the engine while the encoder embeds the query (src/core/lexical-ahead.ts)
      if (opts.semantic !== false) engine.prepareSearch?.(query, engineOpts).catch((e: unknown) => console.debug('[mnemograph] keyword half ahead not run', e));
      const vector = opts.semantic === false ? null : await embedOne(query, signal);
      aborted(signal);
      const hits = (await engine.search({ text: query, vector }, { ...engineOpts, now: ctx.now() }, signal)).filter(isShownHit); // the core's relevance cut
      const rows = await bulkGetMemories(db, hits.map((h) => h.id));
      aborted(signal);
      const out: SearchResultView[] = [];
      hits.forEach((hit, i) => {
        const memory = rows[i];
        if (memory && memory.deletedAt === null) out.push({ hit, memory, explanation: explainHit(hit) });
      });
      return out;
    },
  };
}
