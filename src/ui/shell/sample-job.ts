// The one sample-collection load of this page, shared by every place that offers it (the empty
// Memories view, Explore's sample card, the command palette, the first-run guide): a small
// external store, so the progress shows wherever the person is, and a second click does not
// start a second copy. Progress names the phase, moves after each batch the encoder finishes,
// and estimates the time left from the pace so far (progress.ts).
import { useSyncExternalStore } from 'react';
import { isAborted } from '../../core/errors';
import { services } from '../../services';
import { loadSampleMemories } from '../../sample';
import { decodeSampleVectors, SAMPLE_VECTORS_FILE, textsHash, type SampleVectors } from '../../sample/vectors';
import { useUi } from '../../state/ui-store';
import { errorMessage } from '../app/format';
import { logError } from '../app/report';
import { markSampleLoaded } from '../app/use-settings';
import { estimateLeftMs, type SamplePhase } from './progress';

export type SampleJob =
  | { state: 'idle'; note?: string }
  | { state: 'running'; phase: SamplePhase; done: number; total: number; startedAt: number; leftMs: number | null }
  | { state: 'done'; count: number; ms: number }
  | { state: 'error'; message: string };

/** Memories per featurize call (the services' default): the progress moves after each. */
export const SAMPLE_BATCH = 32;

/**
 * The sample's stored E1 vectors (built with the app's encoder at build time), or null when they
 * are missing, unreadable or made for other texts: then every text is encoded, as before.
 */
async function storedVectors(texts: readonly string[], signal: AbortSignal): Promise<SampleVectors | null> {
  try {
    const res = await fetch(`${import.meta.env.BASE_URL ?? '/'}generated/${SAMPLE_VECTORS_FILE}`, { signal });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    const v = decodeSampleVectors(await res.arrayBuffer());
    if (v.count !== texts.length || v.textsHash !== textsHash(texts)) throw new Error('made for other sample texts');
    return v;
  } catch (e) {
    if (signal.aborted) throw e;
    console.info('[mnemograph] the sample is embedded without its stored vectors:', e);
    return null;
  }
}

let job: SampleJob = { state: 'idle' };
let controller: AbortController | null = null;
const listeners = new Set<() => void>();

function set(next: SampleJob): void {
  job = next;
  for (const l of [...listeners]) l();
}

export const sampleJob = {
  get: (): SampleJob => job,
  subscribe(l: () => void): () => void {
    listeners.add(l);
    return () => listeners.delete(l);
  },

  /** Starts loading (once: a running load is left alone). Resolves when it ends, however it ends. */
  async start(): Promise<void> {
    if (job.state === 'running') return;
    const ac = new AbortController();
    controller = ac;
    const t0 = performance.now();
    set({ state: 'running', phase: 'reading', done: 0, total: 0, startedAt: Date.now(), leftMs: null });
    try {
      const items = await loadSampleMemories();
      const stored = await storedVectors(items.map((m) => m.text), ac.signal);
      const startedAt = Date.now();
      set({ state: 'running', phase: 'embedding', done: 0, total: items.length, startedAt, leftMs: null });
      const added = await services().importMemories(
        items.map((m, i) => ({
          text: m.text,
          tags: m.tags,
          importance: m.importance,
          source: m.source,
          createdAt: Date.parse(m.createdAt),
          sessionId: m.sessionId,
          media: m.media?.map((x) => ({ ...x })),
          ...(stored ? { semantic: stored.vectors[i] } : {}),
        })),
        {
          signal: ac.signal,
          sample: true,
          batchSize: SAMPLE_BATCH,
          ...(stored ? { semanticFrom: stored.model } : {}),
          onProgress: (p) => {
            if (ac.signal.aborted) return;
            const phase = p.phase ?? 'embedding';
            set({ state: 'running', phase, done: p.embedded, total: p.total, startedAt, leftMs: estimateLeftMs(startedAt, Date.now(), p.embedded, p.total) });
          },
        },
      );
      set({ state: 'done', count: added.length, ms: Math.round(performance.now() - t0) });
      // the sample cards step aside on the next visit; a failure here is logged, the sample is loaded
      markSampleLoaded().catch((e: unknown) => logError(e));
      useUi.getState().pushToast({ kind: 'success', message: `Sample collection loaded: ${added.length} memories.` });
    } catch (e) {
      if (isAborted(e) || ac.signal.aborted) set({ state: 'idle', note: 'Loading was cancelled; nothing was added.' });
      else set({ state: 'error', message: errorMessage(e) });
    } finally {
      if (controller === ac) controller = null;
    }
  },

  /** Cancels a running load: nothing is added (the import writes all or nothing). */
  cancel(): void {
    controller?.abort();
  },
};

export function useSampleJob(): SampleJob {
  return useSyncExternalStore(sampleJob.subscribe, sampleJob.get, sampleJob.get);
}
