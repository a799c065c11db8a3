// The sentence encoder worker: runs the encoder asked for (default MiniLM through Transformers.js,
// workers/embed-transformers.ts; USE-lite on tfjs, workers/embed-use-lite.ts), falling back to
// USE-lite when the default cannot be loaded (its files not built) and saying so in the load
// progress. Each runtime picks WebGPU or WASM by the same rules. Vectors leave by transfer.
import * as Comlink from 'comlink';
import { AppError, toEnvelope } from '../src/core/errors';
import { DEFAULT_ENCODER_ID, FALLBACK_ENCODER_ID, encoderMeta, type EncoderMeta } from '../src/embed/encoders';
import type { Embedder, EmbedderInfo, EmbedLoadProgress } from '../src/embed/types';
import { failureText } from '../src/embed/webgpu-choice';
import type { LexicalResources } from '../src/core/features';
import { LEXICAL_ID, type EmbedInitOptions, type FeaturizedItem, type FeaturizeItem, type SerializedFeatures, type EntityMentionOut, type QueryVariant } from '../src/protocol/embed';
import { mark, startupTimings } from './startup-marks';
import type { TokenMatrix } from '../src/core/pipeline';

// Start-up (issue 12, point 11): the worker's own code is small; the featurizers (wink-nlp and its
// English model, ~2 MB of script), USE-lite's tfjs and Transformers.js are each imported when first
// needed, so the default encoder's load starts without parsing the others first.
type FeaturizeCore = typeof import('./featurize-core');
let featurizeCore: Promise<FeaturizeCore> | undefined;
const core = (): Promise<FeaturizeCore> => (featurizeCore ??= import('./featurize-core'));
let useLite: typeof import('./embed-use-lite') | undefined;

mark('worker-start');

type ProgressFn = (p: EmbedLoadProgress) => void;

/** What the worker runs: an Embedder, the encoder for queries (the model's query prefix), and its disposal. */
interface WorkerEncoder extends Embedder {
  forQueries?(): Embedder;
  /** Token matrices (late interaction): Transformers.js encoders only. */
  tokens?(texts: string[], signal?: AbortSignal, idsOnly?: boolean): Promise<TokenMatrix[]>;
}

let encoder: WorkerEncoder | undefined;
/** Why the encoder asked for is not the one running (kept on the ready message), if it is not. */
let fallbackNote: string | undefined;
let loading: Promise<EmbedderInfo> | undefined;
const inflight = new Map<number, AbortController>();

async function loadOne(meta: EncoderMeta, opts: EmbedInitOptions, base: string, report: ProgressFn): Promise<WorkerEncoder> {
  if (meta.runtime === 'tfjs') {
    const tagged: ProgressFn = (p) => report({ ...p, encoder: meta.id });
    useLite ??= await import('./embed-use-lite');
    return useLite.loadUseLite(opts, base, tagged);
  }
  const { loadTransformersEncoder } = await import('./embed-transformers');
  return loadTransformersEncoder(meta, opts, base, report);
}

async function load(opts: EmbedInitOptions, report: ProgressFn): Promise<EmbedderInfo> {
  const base = import.meta.env.BASE_URL ?? '/';
  const wanted = opts.encoder ?? DEFAULT_ENCODER_ID;
  // a downloaded or picked model comes with its catalogue entry; the bundled ones are known here
  const meta = opts.entry?.id === wanted ? opts.entry : encoderMeta(wanted);
  if (!meta) throw new AppError('MODEL_LOAD_FAILED', undefined, `unknown encoder ${wanted}`);
  const fallbackId = opts.fallbackEncoder === undefined ? FALLBACK_ENCODER_ID : opts.fallbackEncoder;
  const fallback = fallbackId && fallbackId !== meta.id ? encoderMeta(fallbackId) : undefined;
  try {
    encoder = await loadOne(meta, opts, base, report);
  } catch (e) {
    if (!fallback) throw e;
    // the default's files were not built (no pip / PyPI at install), or its runtime failed here
    console.warn(`embed worker: ${meta.id} could not be loaded, running ${fallback.id}:`, e);
    const detail = (e as { detail?: unknown } | null)?.detail;
    const cause = typeof detail === 'string' && detail ? detail : e;
    const why = `${meta.label} could not be loaded (${failureText(cause, 160)}); using ${fallback.label} instead.`;
    fallbackNote = why;
    const tagged: ProgressFn = (p) => report({ ...p, message: p.message ? `${why} ${p.message}` : why });
    encoder = await loadOne(fallback, opts, base, tagged);
  }
  return encoder.info();
}

/**
 * The lexical resources of the spaces, fetched from the app's origin once, on first use. A
 * missing build (public/generated/ not built) is MODEL_LOAD_FAILED with the fix in the message.
 */
async function resources(): Promise<LexicalResources> {
  const base = import.meta.env.BASE_URL ?? '/';
  const [{ resourcesOrFail }, { getResources }] = await Promise.all([core(), import('../src/features/resources')]);
  return resourcesOrFail(() => getResources(`${base}generated/`));
}

/** Runs `fn` with an AbortController registered under `requestId` (cancel() aborts it). */
async function tracked<T>(requestId: number, fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
  if (!encoder) throw new AppError('MODEL_LOAD_FAILED', undefined, 'called before init()').toEnvelope();
  const ac = new AbortController();
  inflight.set(requestId, ac);
  try {
    return await fn(ac.signal);
  } catch (e) {
    if (ac.signal.aborted) throw new AppError('ABORTED').toEnvelope();
    throw toEnvelope(e, 'MODEL_LOAD_FAILED');
  } finally {
    inflight.delete(requestId);
  }
}

const api = {
  /** Loads the model once; later calls return the same result. Rejects with an ErrorEnvelope. */
  async init(opts: EmbedInitOptions = {}, onProgress?: ProgressFn): Promise<EmbedderInfo> {
    // Progress goes through a Comlink proxy; never let a closed page break the load.
    const report: ProgressFn = (p) => {
      const closed = (e: unknown) => console.debug('[mnemograph] load progress not delivered (the page went away)', e);
      try {
        void Promise.resolve(onProgress?.(p)).catch(closed);
      } catch (e) {
        closed(e);
      }
    };
    if (!loading) mark('init');
    loading ??= load(opts, report).then(
      (info) => {
        mark('ready');
        // a fallback's reason stays on the ready message, so the page can say which encoder runs and why
        report({ phase: 'ready', backend: info.backend, encoder: info.id, timings: startupTimings(), ...(fallbackNote && { message: fallbackNote }) });
        // the first capture will need the featurizers: bring them in now, after the model
        void resources().catch(() => undefined);
        return info;
      },
      (e: unknown) => {
        loading = undefined; // a later init may retry
        const env = toEnvelope(e, 'MODEL_LOAD_FAILED');
        report({ phase: 'error', message: env.message + (env.detail ? ` (${env.detail})` : '') });
        throw env;
      },
    );
    return loading;
  },

  /** One vector per text, transferred. `requestId` lets cancel() stop it between batches. */
  async embed(texts: string[], requestId: number): Promise<Float32Array[]> {
    return tracked(requestId, async (signal) => {
      const vectors = await encoder!.embed(texts, signal);
      return Comlink.transfer(vectors, vectors.map((v) => v.buffer as ArrayBuffer));
    });
  },

  /** As embed, for search queries (the model's query prefix, if it has one). */
  async embedQueries(texts: string[], requestId: number): Promise<Float32Array[]> {
    return tracked(requestId, async (signal) => {
      const vectors = await (encoder!.forQueries?.() ?? encoder!).embed(texts, signal);
      return Comlink.transfer(vectors, vectors.map((v) => v.buffer as ArrayBuffer));
    });
  },

  /**
   * Each text's token matrix for late interaction (un-pooled, special tokens removed: the eval's
   * src/embed/token-matrix.ts; `idsOnly`: the tokenizer alone), transferred; null when the encoder has no token outputs (USE-lite).
   */
  async tokens(texts: string[], requestId: number, idsOnly = false): Promise<TokenMatrix[] | null> {
    return tracked(requestId, async (signal) => {
      if (!encoder!.tokens) return null;
      const out = (await encoder!.tokens(texts, signal, idsOnly)).map((m) => ({ ids: Int32Array.from(m.ids), vectors: m.vectors, dim: m.dim }));
      return Comlink.transfer(out, out.flatMap((m) => [m.ids.buffer as ArrayBuffer, m.vectors.buffer as ArrayBuffer]));
    });
  },

  /** All thirteen spaces of each item (serialised, buffers transferred). */
  async featurize(items: FeaturizeItem[], requestId: number): Promise<FeaturizedItem[]> {
    return tracked(requestId, async (signal) => {
      const { featurizeItems, buffersOf } = await core();
      const out = await featurizeItems(items, encoder!, await resources(), signal);
      return Comlink.transfer(out, buffersOf(out.map((o) => o.spaces)));
    });
  },

  /** A query's content spaces (serialised, buffers transferred), with the model's query prefix. */
  async featurizeQuery(text: string, requestId: number): Promise<SerializedFeatures> {
    return tracked(requestId, async (signal) => {
      const { featurizeQueryText, buffersOf } = await core();
      const out = await featurizeQueryText(text, encoder!.forQueries?.() ?? encoder!, await resources(), signal);
      return Comlink.transfer(out, buffersOf([out]));
    });
  },

  /** The entity mentions of each text (the entity index). */
  async entities(texts: string[]): Promise<EntityMentionOut[][]> {
    const { entitiesOfTexts } = await core();
    return entitiesOfTexts(texts, await resources());
  },

  /** multiQuery's offline variants of `query`, each with its query vector (transferred). */
  async queryVariants(query: string, count: number, feedback: string[], requestId: number): Promise<QueryVariant[]> {
    return tracked(requestId, async (signal) => {
      const { queryVariantsOf } = await core();
      const out = await queryVariantsOf(query, count, feedback, encoder!.forQueries?.() ?? encoder!, await resources(), signal);
      return Comlink.transfer(out, out.flatMap((v) => (v.vector ? [v.vector.buffer as ArrayBuffer] : [])));
    });
  },

  /** Id of the lexical featurizers (the `model` of their stored rows). */
  lexicalId(): string {
    return LEXICAL_ID;
  },

  cancel(requestId: number): void {
    inflight.get(requestId)?.abort();
  },

  info(): EmbedderInfo | null {
    return encoder ? encoder.info() : null;
  },

  /** Live tfjs tensors (USE-lite), for leak checks in diagnostics. */
  numTensors(): number {
    return useLite?.numTensors() ?? 0;
  },
};

export type EmbedWorkerApi = typeof api;

Comlink.expose(api);
