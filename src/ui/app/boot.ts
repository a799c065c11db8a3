// Start-up: the services (which start the encoder in use in its embed worker; its load progress
// feeds the model status, and after a switch of encoders the new one's does), and the small typed
// test API on window.__mnemograph (e2e uses it only where the UI cannot reach).
import type { EmbedBridge } from '../../bridge/embed-bridge';
import type { EmbedLoadProgress } from '../../embed/types';
import type { EngineLoadProgress } from '../../protocol/engine';
import { toAppError, type AppError } from '../../core/errors';
import { bridgeEncoderFactory, initServices, services, type EncoderRuntime } from '../../services';
import type { EmbedInitOptions } from '../../protocol/embed';
import { logError } from './report';
import { setActiveEncoder } from './encoder-scale';
import { DEFAULT_ENCODER_ID } from '../../embed/catalogue';
import { useUi } from '../../state/ui-store';

export type BootState =
  | { state: 'starting' }
  | { state: 'ready' }
  | { state: 'failed'; error: AppError };

export interface MnemographTestApi {
  /** Resolves when the database is open and the sentence encoder is ready. */
  ready: Promise<void>;
  /** Live (non-deleted) memories in the database. */
  memoryCount(): Promise<number>;
  /** The IndexedDB database name, for tests that open it directly. */
  dbName: string;
  /** The search engine's staged start: the last step it told (null before it started), for e2e and the scale bench. */
  engineLoad(): EngineLoadProgress | null;
}

declare global {
  interface Window {
    __mnemograph?: MnemographTestApi;
  }
}

export const DB_NAME = 'mnemograph';

/**
 * A switch for e2e and development: localStorage `mnemograph.carefulRanking` = 'off' keeps careful
 * ranking (the judge's worker and its background reading) from starting in this browser profile,
 * whatever the setting says. The e2e suite sets it for every spec but e2e/judge.spec.ts
 * (playwright.config.ts `storageState`; e2e/README.md), so no other spec's ranking waits on, or
 * changes with, how far the background reading got.
 */
export const CAREFUL_RANKING_SWITCH = 'mnemograph.carefulRanking';

function carefulRankingSwitchedOff(): boolean {
  try {
    return typeof localStorage !== 'undefined' && localStorage.getItem(CAREFUL_RANKING_SWITCH) === 'off';
  } catch {
    return false; // storage refused (a privacy mode): the setting decides
  }
}

/** Resolves once the engine has every stored feature (or told no staged start). */
function whenEngineWarm(): Promise<void> {
  return new Promise((resolve) => {
    const s = services();
    if ((s.engineLoad()?.stage ?? 'warm') === 'warm') return resolve();
    const off = s.onEngineLoad((p) => {
      if (p.stage !== 'warm') return;
      off();
      resolve();
    });
  });
}

type Listener = () => void;

function store<T>(initial: T) {
  let value = initial;
  const listeners = new Set<Listener>();
  return {
    get: () => value,
    set(v: T) {
      value = v;
      for (const l of listeners) l();
    },
    subscribe(l: Listener) {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
}

export const bootStatus = store<BootState>({ state: 'starting' });
export const modelProgress = store<EmbedLoadProgress>({ phase: 'fetching-model' });

/** The model status follows the encoder in use: the one started at init, then each one a switch brings in. */
let unfollow: () => void = () => undefined;
function followEncoder(rt: EncoderRuntime): Promise<unknown> {
  unfollow();
  const bridge = rt.embedder as Partial<EmbedBridge>;
  unfollow =
    bridge.onProgress?.((p) => {
      if (p.encoder) setActiveEncoder(p.encoder); // the UI's cosine cut-offs follow its scale
      if (p.phase === 'ready') markOnce('model-ready', p.timings);
      modelProgress.set(p);
    }) ?? (() => undefined);
  return bridge.ready?.() ?? Promise.resolve();
}

/** A start-up mark on the page's timeline (scripts/bench/startup.ts reads them), the first time only. */
function markOnce(name: string, detail?: unknown): void {
  const full = `mnemograph:${name}`;
  if (typeof performance === 'undefined' || performance.getEntriesByName(full).length > 0) return;
  performance.mark(full, { detail });
}

/** `embedInit`: options for the embed workers (the bench page's comparisons); the app passes none. */
export function boot(opts: { embedInit?: EmbedInitOptions } = {}): MnemographTestApi {
  if (typeof window !== 'undefined' && window.__mnemograph) return window.__mnemograph;
  // the services start the encoder in use (recorded by the last switch of encoders, else the default)
  const servicesReady = initServices({ dbName: DB_NAME, ...(opts.embedInit && { encoders: bridgeEncoderFactory({ init: opts.embedInit }) }) }).then(
    (s) => {
      markOnce('services-ready');
      bootStatus.set({ state: 'ready' });
      s.onEncoderChange((rt) => void followEncoder(rt).catch(() => undefined)); // a failure shows on the model status
      return s;
    },
    (e: unknown) => {
      const err = toAppError(e, 'DB_UNAVAILABLE');
      bootStatus.set({ state: 'failed', error: err });
      throw err;
    },
  );
  const modelReady = servicesReady.then((s) =>
    followEncoder(s.currentEncoder()).then(
      () => undefined,
      (e: unknown) => {
        const err = toAppError(e, 'MODEL_LOAD_FAILED');
        // the worker's detail stays on the message: the status words it plainly from it (load-failure.ts)
        modelProgress.set({ phase: 'error', message: err.detail ? `${err.message} (${err.detail})` : err.message });
        throw err;
      },
    ),
  );
  const api: MnemographTestApi = {
    ready: Promise.all([servicesReady, modelReady]).then(() => undefined),
    memoryCount: async () => {
      await servicesReady;
      return services().countMemories();
    },
    dbName: DB_NAME,
    engineLoad: () => (bootStatus.get().state === 'ready' ? services().engineLoad() : null),
  };
  api.ready.catch(() => {
    /* already shown (model status, boot banner); the test API's promise must not be an unhandled rejection */
  });
  // A switch of encoders interrupted by a reload carries on where it stopped (a paused one waits).
  // A store made with an older default encoder (the services started it: its vectors' encoder)
  // moves to the current one the same way, in the background: the one path that moves a store.
  api.ready
    .then(() => services().resumeEncoderSwitchAfterStart())
    .then(() => services().upgradeToDefaultEncoder(DEFAULT_ENCODER_ID))
    .then((started) => {
      if (started)
        useUi.getState().pushToast({ kind: 'info', message: 'Preparing your memories for the new search model in the background. Search keeps working meanwhile.' });
    })
    .catch((e: unknown) => logError(e));
  // Memories stored by older featurizers (or before a crash mid-import, or while a fallback ran)
  // get their features recomputed in the background by the store's own encoder; search works
  // meanwhile through whatever spaces they already have. If the encoder that loaded is not the
  // one the engine was filled for (MiniLM's files absent: USE-lite runs), the engine is refilled
  // first; the stored vectors are not moved to it (featurizeMissing leaves them).
  api.ready
    .then(() => services().syncEncoder())
    .then(async () => {
      const n = await services().featurizeMissing();
      // memories stored before the entity index (schema v8) get their entities once
      await services().backfillEntities();
      return n;
    })
    .then(
      (n) => {
        if (n > 0) useUi.getState().pushToast({ kind: 'info', message: `Updated the search features of ${n} memories.` });
      },
      (e: unknown) => {
        // a model or database failure is already on screen (model status, boot banner)
        const err = toAppError(e);
        if (err.code !== 'MODEL_LOAD_FAILED' && err.code !== 'DB_UNAVAILABLE')
          useUi.getState().pushToast({ kind: 'error', message: `Could not update older memories' search features: ${err.message}`, code: err.code });
      },
    );
  // Careful ranking (issue 8): the judge's worker loads only once the app is warm (encoder ready,
  // engine warm), never in the first answer's or capture's way; then it reads the memories in the
  // background. Absent files or a failed load: the app runs without it (Settings says so).
  api.ready
    .then(() => whenEngineWarm())
    .then(() => (carefulRankingSwitchedOff() ? undefined : services().startCarefulRanking()))
    .catch((e: unknown) => logError(e));
  if (typeof window !== 'undefined') window.__mnemograph = api;
  return api;
}
