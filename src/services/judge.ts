// Careful ranking (issue 8): a second, stronger sentence encoder (the judge, MPNet) re-scores the
// refined answer's top 30 (src/core/pipeline/judge.ts, the calibration's depth and weight). This
// module owns it on the page's side: the person's setting (on by default), the judge's worker
// started only after the app is warm (`start`, called by the boot), the background fill of the
// memories' judge vectors (./judge-fill.ts), and what a refinement needs (`prepare`: the query's
// vector, from a small LRU, and the stored vectors of the top 30; at most ON_DEMAND_MAX missing
// ones read on the spot, more = this answer goes without, and says how far the reading is).
import { isAborted, toAppError } from '../core/errors';
import { calibrationFor, type JudgeSpec } from '../core/pipeline';
import type { MemoryId } from '../core/types';
import { judgeInputs, judgeVectorsOf, putJudgeVectors } from '../db/judge-vectors';
import { getSetting, putSetting } from '../db/repo';
import type { JudgeClient, JudgeLoadState } from '../bridge/judge-bridge';
import type { EngineJudgeSource } from '../protocol/engine';
import { MPNET_JUDGE } from '../embed/encoders';
import { logError, type ServiceContext } from './context';
import { createJudgeFill, type JudgeFill, type JudgeFillProgress } from './judge-fill';
import { createQuietGate, LOAD_QUIET_MS } from './quiet-gate';

/** Setting key: false = careful ranking off; unset or true = on (when its model is present). */
export const CAREFUL_RANKING_SETTING = 'carefulRanking';
/** Missing judge vectors of an answer's top `depth` read at query time at most (~0.5 s each in WASM). */
export const ON_DEMAND_MAX = 3;
/** Query vectors kept (a repeated or refined query costs no judge call). */
const QUERY_CACHE = 32;

export interface CarefulRankingStatus {
  /** The person's setting. */
  on: boolean;
  /** The judge's model: not started yet, loading, ready, or unavailable (`detail` says why, technically). */
  model: JudgeLoadState['state'] | 'none';
  detail?: string;
  /** Memories it has read (current vectors) of the live ones. */
  read: number;
  total: number;
  /** Reading now; paused while a search or capture runs. */
  reading: boolean;
  paused: boolean;
  /** The figures behind "details": the judge, its depth and weight, its load time. */
  figures: { id: string; name: string; dim: number; depth: number; weight: number; loadMs?: number } | null;
}

/** What a refinement gets: the vectors to judge with, or why this answer goes without. */
export type JudgePrepared =
  | { kind: 'judge'; spec: JudgeSpec; query: Float32Array; vectors: Map<MemoryId, Float32Array>; readNow: number }
  | { kind: 'reading'; percent: number }
  | null;

export interface CarefulRankingDeps {
  /** Starts the judge's worker client (the app: createJudgeBridge); null = no judge here. */
  client: (() => JudgeClient) | null;
}

export function createCarefulRanking(ctx: ServiceContext, deps: CarefulRankingDeps) {
  const { db } = ctx;
  const listeners = new Set<(s: CarefulRankingStatus) => void>();
  let on = true;
  let client: JudgeClient | null = null;
  let fill: JudgeFill | null = null;
  let fillProgress: JudgeFillProgress = { done: 0, total: 0, running: false, paused: false };
  let started = false;
  const gate = createQuietGate();
  const queries = new Map<string, Float32Array>();

  /** The judge of the encoder in use (its calibration's), if its model is the one built. */
  const spec = (): JudgeSpec | null => {
    const j = calibrationFor(ctx.embedder.info().id).judge;
    return j && j.id === MPNET_JUDGE.id && j.depth > 0 && j.weight > 0 ? j : null;
  };

  function status(): CarefulRankingStatus {
    const s = client?.state() ?? { state: 'idle' as const };
    const j = spec();
    return {
      on,
      model: deps.client && j ? s.state : 'none',
      ...(s.state === 'unavailable' ? { detail: s.detail ? `${s.message} (${s.detail})` : s.message } : {}),
      read: fillProgress.done,
      total: fillProgress.total,
      reading: fillProgress.running,
      paused: fillProgress.paused,
      figures: j ? { id: MPNET_JUDGE.id, name: MPNET_JUDGE.name, dim: MPNET_JUDGE.dim, depth: j.depth, weight: j.weight, ...(s.state === 'ready' ? { loadMs: s.loadMs } : {}) } : null,
    };
  }
  const emit = () => {
    const s = status();
    for (const l of listeners) l(s);
  };

  function ensureFill(j: JudgeSpec): JudgeFill {
    fill ??= createJudgeFill({
      db,
      judgeId: j.id,
      embed: (texts, signal) => client!.embed(texts, signal),
      busy: gate.busy,
      whenIdle: gate.whenIdle,
      onProgress: (p) => {
        fillProgress = p;
        emit();
      },
    });
    return fill;
  }

  /** Loads the judge and starts the fill, when on and available; never throws (the status says why). */
  async function run(): Promise<void> {
    const j = spec();
    if (!on || !j || !deps.client) return;
    if (!client) {
      // loading the judge is ~10 s of one core (111 MB of weights): not in the middle of the
      // person's first searches after a start, but once they pause (the fill's quiet gate)
      await gate.whenIdleFor(LOAD_QUIET_MS);
      if (client || !on) return;
      client = deps.client();
      client.onState(() => emit());
    }
    try {
      await client.ready();
    } catch (e) {
      logError(e, 'careful ranking is not available; answers are ranked without it');
      return;
    }
    if (on) ensureFill(j).start();
  }

  /** Whether a refinement should ask for the judge's depth (on, its model ready, a judge for this encoder). */
  const wanted = (): JudgeSpec | null => (on && client?.state().state === 'ready' ? spec() : null);

  return {
    /** After the app is warm (the boot): reads the setting, then loads the judge and reads the memories in the background. */
    async startCarefulRanking(): Promise<void> {
      if (started) return;
      started = true;
      on = (await getSetting<boolean>(db, CAREFUL_RANKING_SETTING).catch(() => undefined)) !== false;
      emit();
      await run();
    },

    /** The person's switch: off stops the reading (the vectors kept stay); on starts it. */
    async setCarefulRanking(value: boolean): Promise<void> {
      await putSetting(db, CAREFUL_RANKING_SETTING, value);
      on = value;
      if (!value) fill?.stop();
      emit();
      if (value && started) await run();
    },

    carefulRanking: status,
    onCarefulRanking(listener: (s: CarefulRankingStatus) => void): () => void {
      listeners.add(listener);
      listener(status());
      return () => listeners.delete(listener);
    },
    /** Resolves when the fill has read every memory (or stopped): tests and the bench. */
    carefulRankingSettled: (): Promise<void> => fill?.settled() ?? Promise.resolve(),

    /** A search or capture runs: the fill waits for the last one to end and QUIET_MS more (call the returned function at the end). */
    hold: gate.hold,
    /** Memories were written: the fill looks for new work. */
    written(): void {
      fill?.kick();
    },
    /** A first answer's candidates (its top `depth`): the fill reads them next. */
    noteAnswer(ids: readonly MemoryId[]): void {
      const j = spec();
      if (j && fill) fill.prioritise(ids.slice(0, j.depth));
    },

    wanted,

    /**
     * The judge's vectors for a refinement over `ids` (the refined ranking's top `depth`, best
     * first). At most ON_DEMAND_MAX missing ones are read now (and kept); more: `reading` with
     * the fill's progress, and the answer goes without. null: no judge for this answer.
     */
    async prepare(query: string, ids: readonly MemoryId[], signal?: AbortSignal): Promise<JudgePrepared> {
      const j = wanted();
      if (!j || !client) return null;
      const top = ids.slice(0, j.depth);
      const vectors = await judgeVectorsOf(db, j.id, top);
      const missing = top.filter((id) => !vectors.has(id));
      if (missing.length > ON_DEMAND_MAX) {
        const total = Math.max(1, fillProgress.total);
        return { kind: 'reading', percent: Math.min(99, Math.floor((100 * fillProgress.done) / total)) };
      }
      let q = queries.get(query);
      const inputs = missing.length ? await judgeInputs(db, missing) : [];
      const now = missing.flatMap((id, i) => (inputs[i] ? [{ id, ...inputs[i]! }] : []));
      const texts = [...(q ? [] : [query]), ...now.map((x) => x.text)];
      if (texts.length) {
        const got = await client.embed(texts, signal);
        if (!q) {
          q = got.shift()!;
          queries.set(query, q);
          if (queries.size > QUERY_CACHE) queries.delete(queries.keys().next().value as string);
        }
        now.forEach((x, i) => vectors.set(x.id, got[i]));
        if (now.length)
          await putJudgeVectors(
            db,
            j.id,
            now.map((x, i) => ({ memoryId: x.id, inputKey: x.inputKey, vector: got[i] })),
          ).catch((e: unknown) => logError(e, 'careful ranking could not keep a vector it read'));
      } else {
        queries.delete(query);
        queries.set(query, q!);
      }
      return { kind: 'judge', spec: j, query: q!, vectors, readNow: now.length };
    },

    /**
     * Careful ranking's judge for deep search's reader (workers/engine-deep.ts), when on and ready
     * (else undefined: the offline reader): the engine calls it only when the query escalates,
     * with the pool's ids. It answers with the query's judge vector (the LRU above, so the
     * refinement that follows embeds nothing again) and the stored vectors of those ids; a member
     * without one is not read now (the fill will). null on any failure: the engine reads offline.
     */
    deepJudge(query: string, signal?: AbortSignal): EngineJudgeSource | undefined {
      if (!wanted() || !client) return undefined;
      return async (ids) => {
        const j = wanted();
        if (!j || !client) return null;
        try {
          const t0 = performance.now();
          let q = queries.get(query);
          if (!q) {
            q = (await client.embed([query], signal))[0];
            if (!q) return null;
            queries.set(query, q);
            if (queries.size > QUERY_CACHE) queries.delete(queries.keys().next().value as string);
          }
          const queryMs = Math.round(performance.now() - t0);
          return { query: q, vectors: Object.fromEntries(await judgeVectorsOf(db, j.id, ids)), queryMs };
        } catch (e) {
          if (!isAborted(e)) logError(toAppError(e), 'careful ranking could not read for deeper search; it reads without it');
          return null;
        }
      };
    },

    disposeCarefulRanking(): void {
      fill?.stop();
      client?.dispose();
      listeners.clear();
    },
  };
}

export type CarefulRanking = ReturnType<typeof createCarefulRanking>;

/** A refinement's judge failed: the answer stays as refined (a newer query's abort goes up). */
export function judgeFailed(e: unknown, signal?: AbortSignal): boolean {
  if (isAborted(e) || signal?.aborted) return false;
  logError(toAppError(e), 'careful ranking could not judge this answer; the refined one stays');
  return true;
}
