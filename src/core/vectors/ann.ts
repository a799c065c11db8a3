// AnnIndex: the approximate first stage of a DenseStore's search above a measured size threshold
// (IVF, ivf.ts). Below the threshold, and until an index is ready, `search` answers null and the
// caller runs the store's exact search, so results there are exactly today's. The index is built in
// the background in small steps (a generator driven by `schedule`, each step within `budgetMs`), so
// queries are never blocked by a build; `cancel()` stops it. It follows every change of the store
// (DenseWatcher), and a new build replaces it when its lists skew or the store doubled / halved
// since training (the old index answers meanwhile).

import { AppError } from '../errors';
import { compareRanked } from '../topk';
import { searchAmong } from './among';
import { normalize } from '../vector';
import { IvfModel } from './ivf';
import { sampleSlots, seeded, trainCentroids, YIELD_EVERY } from './kmeans';
import type { DenseHit, DenseScanOptions, DenseStore, DenseWatcher } from './store';

/** Measured (docs/benchmarks.md, "Approximate index"): the exact int8 SIMD scan up to here. */
export const DEFAULT_ANN_THRESHOLD = 200_000;

export interface AnnParams {
  /** Lists (centroids): default round(√n), within [16, 2048]. */
  lists?: number;
  /** Training sample: lists × this many points (default 24), at most n. */
  samplePerList?: number;
  iterations?: number;
  /** Groups (of √lists) an assignment looks into: default a quarter of them. */
  groupProbe?: number;
  /** The recall@10 against exact that `nprobe` is calibrated to reach (default 0.97). */
  targetRecall?: number;
  calibrationQueries?: number;
  /**
   * When the top 10 needs more than this share of the lists, the index does not pay: the exact scan
   * answers. A wider k probes more lists, up to this share (its recall is then below the target).
   */
  maxProbedShare?: number;
  seed?: number;
}

export interface AnnOptions extends AnnParams {
  /** Smallest store size answered by the index (default DEFAULT_ANN_THRESHOLD). */
  threshold?: number;
  /** Runs a step of the background build later (default: a 0 ms timer). */
  schedule?: (step: () => void) => void;
  /** Milliseconds of build work per step (default 8). */
  budgetMs?: number;
}

export type AnnState = 'exact' | 'building' | 'ready';

export interface AnnStatus {
  state: AnnState;
  lists: number;
  nprobe: number;
  /** Lists probed for k = 500 (the hybrid's candidate list). */
  nprobeWide: number;
  calibratedRecall: number | null;
  probedShare: number;
  bytes: number;
  builds: number;
}

// a 0 ms timer (workers and Node have one; the core's types do not name it)
const defaultSchedule = (step: () => void): void => {
  (globalThis as unknown as { setTimeout: (f: () => void, ms: number) => unknown }).setTimeout(step, 0);
};

export class AnnIndex implements DenseWatcher {
  threshold: number;
  private readonly params: Required<AnnParams>;
  private readonly schedule: (step: () => void) => void;
  private readonly budgetMs: number;
  private model: IvfModel | null = null;
  private pending: IvfModel | null = null;
  private job: Generator<void, IvfModel> | null = null;
  private generation = 0;
  private builds = 0;
  private readonly builtSkew = new WeakMap<IvfModel, number>();

  constructor(
    private readonly store: DenseStore,
    opts: AnnOptions = {},
  ) {
    this.threshold = opts.threshold ?? DEFAULT_ANN_THRESHOLD;
    if (!(this.threshold >= 0)) throw new AppError('INVALID_CONFIG', `The approximate index threshold must be >= 0 (got ${opts.threshold}).`);
    this.params = {
      lists: opts.lists ?? 0,
      samplePerList: opts.samplePerList ?? 24,
      iterations: opts.iterations ?? 6,
      groupProbe: opts.groupProbe ?? 0,
      targetRecall: opts.targetRecall ?? 0.97,
      calibrationQueries: opts.calibrationQueries ?? 100,
      maxProbedShare: opts.maxProbedShare ?? 0.3,
      seed: opts.seed ?? 1,
    };
    this.schedule = opts.schedule ?? defaultSchedule;
    this.budgetMs = opts.budgetMs ?? 8;
    store.watch(this);
  }

  get state(): AnnState {
    return this.model ? 'ready' : this.job ? 'building' : 'exact';
  }

  status(): AnnStatus {
    const m = this.model;
    return {
      state: this.state,
      lists: m?.lists ?? 0,
      nprobe: m?.nprobe ?? 0,
      nprobeWide: m?.nprobeWide ?? 0,
      calibratedRecall: m?.calibratedRecall ?? null,
      probedShare: m ? m.nprobe / m.lists : 1,
      bytes: (m?.bytes ?? 0) + (this.pending?.bytes ?? 0),
      builds: this.builds,
    };
  }

  written(slot: number, added: boolean): void {
    this.model?.written(slot, added);
    this.pending?.written(slot, added);
  }

  removed(slot: number, moved: { from: number; to: number } | null, size: number): void {
    this.model?.removed(slot, moved, size);
    this.pending?.removed(slot, moved, size);
  }

  /**
   * The best `k` from the index, or null when the caller must run the exact search: below the
   * threshold, before the index is ready (this starts its build), when it does not pay here, or
   * when the probed lists hold fewer than `k` accepted rows (a narrow filter).
   */
  search(q: Float32Array, k: number, opts: DenseScanOptions = {}): DenseHit[] | null {
    if (this.store.size < this.threshold || k <= 0) return null;
    const m = this.model;
    if (!m || this.needsRebuild(m)) this.start();
    if (!m || m.nprobe > this.params.maxProbedShare * m.lists) return null;
    const lists = Math.min(m.nprobeFor(k, WIDE_K), Math.max(m.nprobe, Math.floor(this.params.maxProbedShare * m.lists)));
    const hits = m.search(this.store.prepare(q, opts.encoder), k, lists, opts);
    return hits.length < k ? null : hits;
  }

  /** Starts a background build unless one runs (search starts one by itself). */
  start(): void {
    if (this.job) return;
    const gen = ++this.generation;
    this.job = this.build();
    const tick = (): void => {
      if (gen !== this.generation || !this.job) return;
      const t0 = Date.now();
      for (;;) {
        const r = this.job.next();
        if (r.done) {
          this.model = r.value;
          this.pending = null;
          this.job = null;
          this.builds++;
          return;
        }
        if (Date.now() - t0 >= this.budgetMs) break;
      }
      this.schedule(tick);
    };
    this.schedule(tick);
  }

  /** Stops a running build (the current index, if any, keeps answering). */
  cancel(): void {
    this.generation++;
    this.job?.return(undefined as never);
    this.job = null;
    this.pending = null;
  }

  /** Drops the index and any build: the exact search answers until the next build. */
  reset(): void {
    this.cancel();
    this.model = null;
  }

  /** Runs a build to its end now (benches, tests). */
  buildNow(): void {
    this.cancel();
    const job = this.build();
    for (let r = job.next(); ; r = job.next()) {
      if (r.done) {
        this.model = r.value;
        this.pending = null;
        this.builds++;
        return;
      }
    }
  }

  private needsRebuild(m: IvfModel): boolean {
    const n = this.store.size;
    // skew: only when it grew since the build (a data set with one huge cluster would rebuild forever)
    return m.skew > Math.max(8, 2 * (this.builtSkew.get(m) ?? 0)) || m.wasteShare > 0.5 || n > 2 * m.trainedSize || 2 * n < m.trainedSize;
  }

  private listsFor(n: number): number {
    return this.params.lists > 0 ? this.params.lists : Math.min(2048, Math.max(16, Math.round(Math.sqrt(n))));
  }

  private *build(): Generator<void, IvfModel> {
    const { store, params } = this;
    const rand = seeded(params.seed);
    const L = Math.min(this.listsFor(store.size), Math.max(1, store.size));
    const sample = sampleSlots(store.size, L * params.samplePerList, rand);
    const cents = yield* trainCentroids(store, sample, L, params.iterations, rand);
    const model = new IvfModel(store, cents, { lists: L, groupProbe: params.groupProbe || Math.ceil(Math.sqrt(L) / 4) });
    this.pending = model;
    while (model.covered < store.size) {
      model.cover(model.covered + YIELD_EVERY);
      yield;
    }
    model.compact();
    this.builtSkew.set(model, model.skew);
    yield;
    yield* calibrate(store, model, params, rand);
    return model;
  }
}

/** Slots scanned per step by the calibration's exact searches. */
const EXACT_STEP = 32768;

/**
 * The store's exact top k, computed over ranges of EXACT_STEP slots with a pause between them (a
 * step never blocks for a full scan of a large store): each range's exact top k, merged.
 */
function* exactInSteps(store: DenseStore, q: Float32Array, k: number): Generator<void, DenseHit[]> {
  const p = store.prepare(q);
  let best: DenseHit[] = [];
  const range = new Int32Array(EXACT_STEP);
  for (let from = 0; from < store.size; from += EXACT_STEP) {
    const n = Math.min(EXACT_STEP, store.size - from);
    for (let i = 0; i < n; i++) range[i] = from + i;
    best = best.concat(searchAmong(store, p, k, range, n)).sort(compareRanked).slice(0, k);
    yield;
  }
  return best;
}

/** The norm of the noise added to a stored vector to make a calibration query. */
const QUERY_NOISE = 0.5;

/** The k the wide calibration measures (the hybrid's candidateK). */
export const WIDE_K = 500;

/**
 * Sets `model.nprobe` (k <= 10) and `model.nprobeWide` (k = WIDE_K): the fewest lists whose recall
 * against the exact search reaches the target, on queries made from sampled stored vectors.
 */
function* calibrate(store: DenseStore, model: IvfModel, params: Required<AnnParams>, rand: () => number): Generator<void, void> {
  const qs = sampleSlots(store.size, params.calibrationQueries, rand);
  const L = model.lists;
  // hist[r]: the share of true neighbours whose list is the (r + 1)-th probed (r = L: not covered)
  const hist10 = new Float64Array(L + 1);
  const histWide = new Float64Array(L + 1);
  let total = 0;
  const d = store.dim;
  for (const slot of qs) {
    if (slot >= store.size) continue;
    // a stored vector moved by noise of norm QUERY_NOISE (cosine ~0.89 to it): queries are not documents
    const q = store.vectorAt(slot).slice();
    const noise = new Float32Array(d);
    let nn = 0;
    for (let j = 0; j < d; j++) nn += (noise[j] = rand() - 0.5) ** 2;
    for (let j = 0; j < d; j++) q[j] += (noise[j] * QUERY_NOISE) / Math.sqrt(nn);
    const exact = yield* exactInSteps(store, q, WIDE_K);
    if (exact.length === 0) continue;
    const rank = new Int32Array(L);
    model.rankLists(normalize(q)).forEach((c, i) => (rank[c] = i));
    const ten = Math.min(10, exact.length);
    exact.forEach((h, i) => {
      const c = model.listOfSlot(h.slot);
      const r = c < 0 ? L : rank[c];
      if (i < ten) hist10[r] += 1 / ten;
      histWide[r] += 1 / exact.length;
    });
    total++;
  }
  if (total === 0) return;
  const pick = (hist: Float64Array): [number, number] => {
    let got = 0;
    for (let r = 0; r < L; r++) {
      got += hist[r] / total;
      if (got >= params.targetRecall - 1e-9) return [r + 1, got];
    }
    return [L, got];
  };
  [model.nprobe, model.calibratedRecall] = pick(hist10);
  [model.nprobeWide] = pick(histWide);
}
