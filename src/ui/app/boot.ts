// Start-up: one embed bridge (its load progress feeds the model status), the services over it,
// and the small typed test API on window.__mnemograph (e2e uses it only where the UI cannot reach).
import { createEmbedBridge, type EmbedBridge } from '../../bridge/embed-bridge';
import type { EmbedLoadProgress } from '../../embed/types';
import { toAppError, type AppError } from '../../core/errors';
import { initServices, services } from '../../services';
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
}

declare global {
  interface Window {
    __mnemograph?: MnemographTestApi;
  }
}

export const DB_NAME = 'mnemograph';

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

let bridge: EmbedBridge | null = null;

export function boot(): MnemographTestApi {
  if (typeof window !== 'undefined' && window.__mnemograph) return window.__mnemograph;
  bridge = createEmbedBridge();
  bridge.onProgress((p) => modelProgress.set(p));
  const modelReady = bridge.ready().then(
    () => undefined,
    (e: unknown) => {
      const err = toAppError(e, 'MODEL_LOAD_FAILED');
      modelProgress.set({ phase: 'error', message: err.message });
      throw err;
    },
  );
  const servicesReady = initServices({ embedder: bridge, dbName: DB_NAME }).then(
    () => bootStatus.set({ state: 'ready' }),
    (e: unknown) => {
      const err = toAppError(e, 'DB_UNAVAILABLE');
      bootStatus.set({ state: 'failed', error: err });
      throw err;
    },
  );
  const api: MnemographTestApi = {
    ready: Promise.all([servicesReady, modelReady]).then(() => undefined),
    memoryCount: async () => {
      await servicesReady;
      return services().countMemories();
    },
    dbName: DB_NAME,
  };
  api.ready.catch(() => {
    /* already shown (model status, boot banner); the test API's promise must not be an unhandled rejection */
  });
  // Memories stored by an older encoder or older featurizers (or before a crash mid-import) get
  // their vectors recomputed in the background once everything is up; search works meanwhile
  // through whatever spaces they already have.
  // If the encoder that loaded is not the one the engine was filled for (MiniLM's files absent:
  // USE-lite runs), the engine is refilled first. A change of the default encoder (USE-lite ->
  // MiniLM) lands here too: every memory without a MiniLM vector is re-embedded in the background,
  // batch by batch; nothing else of it changes.
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
  if (typeof window !== 'undefined') window.__mnemograph = api;
  return api;
}
