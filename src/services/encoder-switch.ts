// Switching encoders (issue 8): every live memory is embedded again by the new encoder in the
// background, batch by batch through its own embed worker, into `pendingVectors`; search keeps
// using the current vectors and encoder meanwhile. When every live memory has its new vectors the
// flip (one transaction, src/db/encoder-vectors.ts) moves them into `vectors`, the services take
// the new encoder, and the engine is refilled: never a mix of the two. Pause, resume and cancel
// at any time; the switch is recorded in the database, so a reload resumes it where it stopped
// (memories whose new vectors are written are not embedded again).

import { AppError, toAppError } from '../core/errors';
import type { MemoryId } from '../core/types';
import { getSetting } from '../db/repo';
import {
  abandonEncoderSwitch,
  beginEncoderSwitch,
  encoderInputKey,
  flipEncoder,
  pendingWork,
  putPendingVectors,
  readEncoderSetting,
  readSwitchRecord,
  setSwitchState,
  storeEncoder,
  type EncoderSwitchRecord,
} from '../db/encoder-vectors';
import { ENCODER_SETTING, ENCODER_SWITCH_SETTING, type VectorRow } from '../db/schema';
import type { EngineClient } from '../bridge/engine-bridge';
import type { EncoderEntry } from '../embed/catalogue';
import { ENCODER_SPACES } from '../protocol/embed';
import type { ActiveEncoder, EncoderFactory, EncoderRuntime } from './active-encoder';
import { logError, type ServiceContext } from './context';
import { featureRows, semanticOf } from './featurizer';
import type { EngineSync } from './sync';

export type EncoderSwitchState = 'idle' | 'running' | 'paused' | 'finishing' | 'failed';

export interface EncoderSwitchStatus {
  state: EncoderSwitchState;
  /** The encoder search uses now. */
  active: string;
  /** The encoder being switched to (null when idle). */
  to: string | null;
  /** Live memories with their new vectors / all live memories. */
  done: number;
  total: number;
  /** What stopped it ('failed'); also when the new encoder could not start. */
  error: AppError | null;
  /** Measured in this page: milliseconds per memory re-embedded (null before the first batch). */
  msPerMemory: number | null;
}

export interface EncoderSwitchDeps {
  engine: EngineClient;
  sync: EngineSync;
  active: ActiveEncoder;
  /** Starts an encoder (its own embed worker in the app). Absent: switching is refused. */
  factory?: EncoderFactory;
  /** The catalogue entry of an id (bundled, hub or the person's folders). */
  findEntry: (id: string) => Promise<EncoderEntry | undefined>;
  /** Memories per encoder call and per write (default 16). */
  batchSize?: number;
}

export function createEncoderSwitch(ctx: ServiceContext, deps: EncoderSwitchDeps) {
  const { db } = ctx;
  const { engine, sync, active } = deps;
  const batchSize = Math.max(1, deps.batchSize ?? 16);
  const listeners = new Set<(s: EncoderSwitchStatus) => void>();
  let status: EncoderSwitchStatus = { state: 'idle', active: active.current().embedder.info().id, to: null, done: 0, total: 0, error: null, msPerMemory: null };
  /** The running loop and how to stop it; the target's runtime while a switch is on. */
  let job: { ac: AbortController; done: Promise<void> } | null = null;
  let target: { id: string; runtime: EncoderRuntime } | null = null;
  let embedded = 0;
  let embedMs = 0;

  function set(patch: Partial<EncoderSwitchStatus>): void {
    status = { ...status, ...patch, active: active.current().embedder.info().id };
    for (const l of [...listeners]) l(status);
  }

  function dropTarget(): void {
    target?.runtime.dispose();
    target = null;
  }

  async function entryOf(id: string): Promise<EncoderEntry> {
    const entry = await deps.findEntry(id);
    if (!entry) throw new AppError('INVALID_OPTION', `There is no encoder "${id}" on this device.`);
    return entry;
  }

  function runtimeFor(entry: EncoderEntry): EncoderRuntime {
    if (target?.id === entry.id) return target.runtime;
    dropTarget();
    if (!deps.factory) throw new AppError('INVALID_CONFIG', 'This build cannot start another encoder.');
    target = { id: entry.id, runtime: deps.factory(entry) };
    return target.runtime;
  }

  /** One batch: new vectors of the encoder's spaces (E1, E5, E10) for these memories, written as pending. */
  async function embedBatch(rt: EncoderRuntime, to: string, part: Awaited<ReturnType<typeof pendingWork>>['todo'], signal: AbortSignal) {
    const t0 = performance.now();
    const got = await rt.featurizer.featurize(
      part.map((m) => ({ text: m.text, createdAt: m.createdAt, sessionPosition: 0, media: m.media })),
      signal,
    );
    if (signal.aborted) throw new AppError('ABORTED');
    const info = rt.embedder.info();
    // the encoder that answered must be the one asked for (a failed model must not pass its
    // fallback's vectors off as the new encoder's)
    if (info.id !== to) throw new AppError('MODEL_LOAD_FAILED', undefined, `asked for ${to}, ${info.id} answered`);
    const items = part.map((m, i) => {
      const spaces = got[i].spaces;
      semanticOf(spaces, info.dim); // the dimension and finite values checked before anything is stored
      const rows: VectorRow[] = featureRows(m.id, spaces, { encoder: to, lexical: '' }).filter((r) => ENCODER_SPACES.includes(r.space));
      return { memoryId: m.id as MemoryId, inputKey: encoderInputKey(m), rows };
    });
    const n = await putPendingVectors(db, items);
    embedded += part.length;
    embedMs += performance.now() - t0;
    return n;
  }

  /** After the flip committed: the services take the new encoder and the engine refills from the new vectors. */
  async function adopt(rt: EncoderRuntime): Promise<void> {
    target = null; // now the active one: not disposed with the switch
    const prev = active.use(rt);
    // queued on the engine before any search featurized by the new encoder can reach it
    const reloaded = engine.reload();
    prev.dispose();
    sync.broadcast({ setting: ENCODER_SETTING });
    await reloaded;
  }

  async function loop(rec: EncoderSwitchRecord, signal: AbortSignal): Promise<void> {
    const entry = await entryOf(rec.to);
    const rt = runtimeFor(entry);
    // the new model loads first (not counted in the ms per memory); a model that cannot load stops the switch here
    set({ state: 'running', to: rec.to, error: null });
    await (rt.embedder as { ready?: () => Promise<unknown> }).ready?.();
    for (;;) {
      if (signal.aborted) return;
      const { live, todo } = await pendingWork(db, rec.to);
      set({ state: 'running', to: rec.to, total: live, done: live - todo.length, error: null, msPerMemory: embedded ? embedMs / embedded : null });
      if (todo.length === 0) {
        set({ state: 'finishing' });
        const r = await flipEncoder(db, rec.to, ENCODER_SPACES);
        if (!r.flipped) continue; // a capture or an edit came in meanwhile: embed it too
        await adopt(rt);
        if (embedded > 0)
          console.info(`[mnemograph] encoder switch to ${rec.to}: ${embedded} memories re-embedded here, ${(embedMs / embedded).toFixed(1)} ms per memory`);
        set({ state: 'idle', to: null, done: live, total: live });
        return;
      }
      for (let i = 0; i < todo.length; i += batchSize) {
        if (signal.aborted) return;
        await embedBatch(rt, rec.to, todo.slice(i, i + batchSize), signal);
        set({ done: Math.min(live, status.done + Math.min(batchSize, todo.length - i)), msPerMemory: embedMs / embedded });
      }
    }
  }

  /** Runs the loop for the stored record; failures land in the status (and the log), never thrown. */
  function run(rec: EncoderSwitchRecord): Promise<void> {
    if (job) return job.done;
    const ac = new AbortController();
    const done = loop(rec, ac.signal)
      .catch((e: unknown) => {
        if (ac.signal.aborted) return;
        const err = toAppError(e, 'MODEL_LOAD_FAILED');
        logError(err, 'the encoder switch stopped');
        set({ state: 'failed', error: err });
        // remembered as paused: the next start shows it waiting instead of failing again by itself
        setSwitchState(db, 'paused').catch((x: unknown) => logError(x));
      })
      .finally(() => {
        if (job?.ac === ac) job = null;
      });
    job = { ac, done };
    return done;
  }

  async function stop(): Promise<void> {
    const j = job;
    if (!j) return;
    j.ac.abort();
    await j.done;
  }

  async function switchEncoder(id: string): Promise<void> {
    const entry = await entryOf(id);
    const rec = readSwitchRecord(await getSetting(db, ENCODER_SWITCH_SETTING));
    if (rec && rec.to !== entry.id) throw new AppError('ENCODER_SWITCH_BUSY');
    if (!rec && entry.id === active.current().embedder.info().id) return;
    const next: EncoderSwitchRecord = { from: active.current().embedder.info().id, to: entry.id, state: 'running', startedAt: ctx.now() };
    await beginEncoderSwitch(db, next);
    embedded = 0;
    embedMs = 0;
    void run(next);
  }

  return {
    /** The switch's state for the UI: `useSyncExternalStore(subscribeEncoderSwitch, encoderSwitchStatus)`. */
    encoderSwitchStatus: (): EncoderSwitchStatus => status,
    subscribeEncoderSwitch(fn: (s: EncoderSwitchStatus) => void): () => void {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },

    /** The id of the encoder search uses now. */
    activeEncoderId: (): string => active.current().embedder.info().id,

    /**
     * Starts re-embedding every memory with `id` (ENCODER_SWITCH_BUSY while another switch is on;
     * nothing to do when it is already the encoder). Resolves once it has started; follow the status.
     */
    switchEncoder,

    /** Stops after the batch under way (its vectors are dropped); remembered across reloads. */
    async pauseEncoderSwitch(): Promise<void> {
      const rec = await setSwitchState(db, 'paused');
      await stop();
      if (rec) set({ state: 'paused', to: rec.to });
    },

    async resumeEncoderSwitch(): Promise<void> {
      const rec = await setSwitchState(db, 'running');
      if (rec) void run(rec);
    },

    /** Stops and forgets the switch: the new vectors are deleted, the current ones were never touched. */
    async cancelEncoderSwitch(): Promise<void> {
      await stop();
      await abandonEncoderSwitch(db);
      dropTarget();
      set({ state: 'idle', to: null, done: 0, total: 0, error: null });
    },

    /**
     * After start-up: a switch recorded as running (the page was reloaded or closed mid-way)
     * carries on from where it stopped; a paused one shows its progress and waits.
     */
    async resumeEncoderSwitchAfterStart(): Promise<void> {
      const rec = readSwitchRecord(await getSetting(db, ENCODER_SWITCH_SETTING));
      if (!rec) return;
      if (rec.state === 'running') {
        void run(rec);
        return;
      }
      const { live, todo } = await pendingWork(db, rec.to);
      set({ state: 'paused', to: rec.to, total: live, done: live - todo.length });
    },

    /**
     * Another tab finished a switch (setting `encoder` changed): this tab takes the same encoder
     * and refills its engine from the new vectors.
     */
    async followEncoderChange(): Promise<void> {
      const id = readEncoderSetting(await getSetting(db, ENCODER_SETTING));
      if (!id || id === active.current().embedder.info().id || !deps.factory) return;
      const entry = await deps.findEntry(id);
      if (!entry) return;
      const rt = target?.id === id ? target.runtime : deps.factory(entry);
      if (target?.id === id) target = null;
      const prev = active.use(rt);
      const reloaded = engine.reload();
      prev.dispose();
      await reloaded;
      set({ state: 'idle', to: null });
    },

    /**
     * A store made with an older default encoder (recorded by the v7 upgrade or found from its
     * vectors, `storeEncoder`; not chosen by the person) moves to the current default in the background, like any switch: search keeps the
     * old vectors until the new ones are all there. Resolves true when it started one.
     */
    async upgradeToDefaultEncoder(defaultId: string): Promise<boolean> {
      const stored = await storeEncoder(db);
      if (!stored.byUpgrade || stored.id === defaultId || active.current().embedder.info().id === defaultId) return false;
      if (readSwitchRecord(await getSetting(db, ENCODER_SWITCH_SETTING))) return false;
      await switchEncoder(defaultId);
      return true;
    },

    /** Resolves when the loop under way (if any) has stopped: finished, paused, failed or cancelled (tests). */
    whenEncoderSwitchSettled: (): Promise<void> => job?.done ?? Promise.resolve(),

    disposeEncoderSwitch(): void {
      job?.ac.abort();
      dropTarget();
      listeners.clear();
    },
  };
}

export type EncoderSwitch = ReturnType<typeof createEncoderSwitch>;
