// Cost of the thirteen spaces per memory, against the sentence encoder alone (the budget: all
// featurizers together may cost at most as much again as the encoder). Memories are LoCoMo
// turns (eval data, read from /work/shared/data, never bundled). Prints a table; never fails
// on timings.   npx tsx scripts/bench/spaces.ts [--n 200]
// With --ablation [--convs 5]: LoCoMo retrieval per space alone and blended with the hybrid
// search (spaceSystems below, ready for scripts/eval-locomo.ts); ~12 min of encoding for 5
// conversations on 2 cores.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { DEFAULT_HYBRID_CONFIG } from '../../src/core/hybrid';
import type { LexicalResources } from '../../src/core/features';
import {
  BLEND_PRESETS,
  NON_TEMPORAL_SPACES,
  SPACE_IDS,
  blendSpaceScores,
  weightedSimilarity,
  type BlendOptions,
  type SpaceFeatures,
  type SpaceSims,
} from '../../src/core/spaces';
import type { SpaceId } from '../../src/core/types';
import { featurize, featurizeQuery, serializeFeatures, spaceSimilarities, type FeaturizeOptions } from '../../src/features';
import { evaluate, formatTable, hybridSystem, prepare, type EvalQuery, type PreparedConversation, type RetrievalSystem } from '../eval-locomo';
import { loadLocomo } from '../lib/locomo';
import { recognizeEntities } from '../../src/features/ner';
import { loadNodeEncoder } from '../lib/node-encoder';
import { loadNodeResources } from '../lib/resources-node';

const DATA = '/work/shared/data/locomo-dev.json';

interface Turn {
  speaker: string;
  text: string;
  blip_caption?: string;
}

function sampleTurns(n: number): { text: string; caption?: string }[] {
  const convs = JSON.parse(readFileSync(DATA, 'utf8')) as { conversation: Record<string, unknown> }[];
  const all: { text: string; caption?: string }[] = [];
  for (const c of convs) {
    for (const [k, v] of Object.entries(c.conversation)) {
      if (!/^session_\d+$/.test(k) || !Array.isArray(v)) continue;
      for (const t of v as Turn[]) {
        const text = `${t.speaker}: ${t.text}` + (t.blip_caption ? ` [image: ${t.blip_caption}]` : '');
        all.push({ text, caption: t.blip_caption });
      }
    }
  }
  // every k-th turn: a spread over all conversations, deterministic
  const step = Math.max(1, Math.floor(all.length / n));
  return all.filter((_, i) => i % step === 0).slice(0, n);
}

const ms = () => performance.now();

export async function run(n = 200): Promise<Record<string, number>> {
  const t0 = ms();
  const resources = await loadNodeResources();
  const tRes = ms() - t0;
  const t1 = ms();
  recognizeEntities('Warm up the NER model on 7 May 2023.');
  const tNer = ms() - t1;
  const encoder = await loadNodeEncoder();
  const turns = sampleTurns(n);

  // warm-up (JIT, wasm) on a few texts, not measured
  for (const t of turns.slice(0, 5)) await featurize({ text: t.text, createdAt: 0 }, encoder, resources);

  // the encoder alone: one text per call, as ingest of a single memory does
  const e0 = ms();
  const e1s: Float32Array[] = [];
  for (const t of turns) e1s.push((await encoder.embed([t.text]))[0]);
  const encoderMs = (ms() - e0) / turns.length;

  // all other spaces, E1 given (it is the encoder's own output)
  const timings: NonNullable<FeaturizeOptions['timings']> = {};
  const bytes: Partial<Record<SpaceId, number>> = {};
  const present: Partial<Record<SpaceId, number>> = {};
  const f0 = ms();
  for (let i = 0; i < turns.length; i++) {
    const t = turns[i];
    const f = await featurize(
      {
        text: t.text,
        createdAt: Date.UTC(2023, 4, 8) + i * 1000,
        sessionPosition: i % 20,
        semantic: e1s[i],
        media: t.caption ? [{ caption: t.caption }] : undefined,
      },
      encoder,
      resources,
      { timings },
    );
    for (const [id, buf] of Object.entries(serializeFeatures(f)) as [SpaceId, ArrayBuffer][]) {
      bytes[id] = (bytes[id] ?? 0) + buf.byteLength;
      present[id] = (present[id] ?? 0) + 1;
    }
  }
  const featMs = (ms() - f0) / turns.length;
  encoder.dispose();

  const out: Record<string, number> = {
    memories: turns.length,
    'resources.load.ms': tRes,
    'ner.load.ms': tNer,
    'encoder.ms_per_memory': encoderMs,
    'featurize.ms_per_memory': featMs,
    'featurize.ratio_to_encoder': featMs / encoderMs,
  };
  const rows: string[] = [];
  let totalBytes = 0;
  for (const id of SPACE_IDS) {
    const tMs = (timings[id] ?? 0) / turns.length;
    const b = (bytes[id] ?? 0) / turns.length;
    totalBytes += b;
    out[`${id}.ms`] = tMs;
    out[`${id}.bytes`] = b;
    out[`${id}.present`] = (present[id] ?? 0) / turns.length;
    rows.push(
      `${id.padEnd(4)} ${tMs.toFixed(3).padStart(8)} ms ${b.toFixed(0).padStart(7)} B  present ${(((present[id] ?? 0) / turns.length) * 100).toFixed(0).padStart(3)}%`,
    );
  }
  const extraEncoderMs = (timings.encoder ?? 0) / turns.length;
  out['E5+E10.encoder_ms'] = extraEncoderMs;
  out['bytes_per_memory'] = totalBytes;
  console.log(`spaces bench: ${turns.length} LoCoMo turns; resources ${tRes.toFixed(0)} ms, NER model ${tNer.toFixed(0)} ms to load`);
  console.log('space  featurize    stored   (E1: encoder output; E5/E10 extraction only, their encoding below)');
  for (const r of rows) console.log(`  ${r}`);
  console.log(`  extra encoder calls for E5 clauses / E10 captions: ${extraEncoderMs.toFixed(2)} ms per memory`);
  console.log(
    `encoder alone ${encoderMs.toFixed(2)} ms/memory; all other spaces ${featMs.toFixed(2)} ms/memory ` +
      `(x${(featMs / encoderMs).toFixed(2)} of the encoder; budget x1.00); stored ${totalBytes.toFixed(0)} B/memory`,
  );
  return out;
}

/** Features of every memory and query of the prepared conversations (E1 = the eval's vectors). */
export interface SpaceEvalData {
  memory: Map<string, SpaceFeatures>; // key `${sampleId}/${memoryId}`
  query: Map<EvalQuery, SpaceFeatures>;
}

export async function prepareSpaceFeatures(
  prepared: PreparedConversation[],
  embed: (texts: string[]) => Promise<Float32Array[]>,
  resources: LexicalResources,
): Promise<SpaceEvalData> {
  const encoder = { embed };
  const memory = new Map<string, SpaceFeatures>();
  const query = new Map<EvalQuery, SpaceFeatures>();
  for (const pc of prepared) {
    const vectors = await embed(pc.conv.memories.map((m) => m.text));
    let position = 0;
    let session = -1;
    for (let i = 0; i < pc.conv.memories.length; i++) {
      const m = pc.conv.memories[i];
      if (m.session !== session) [position, session] = [0, m.session];
      const caption = /\[image: ([^\]]*)\]/.exec(m.text)?.[1];
      const f = await featurize(
        { text: m.text, createdAt: m.time, sessionPosition: position++, semantic: vectors[i], media: caption ? [{ caption }] : undefined },
        encoder,
        resources,
      );
      memory.set(`${pc.conv.sampleId}/${m.id}`, f);
    }
    for (const q of pc.queries) query.set(q, await featurizeQuery(q.question, encoder, resources, { semantic: q.vector ?? undefined }));
  }
  return { memory, query };
}

/**
 * Retrieval systems over the spaces: each non-temporal space alone, and the hybrid search
 * re-ranked by blendSpaceScores over (hybrid top `pool`) ∪ (top `pool` by weighted similarity).
 */
export function spaceSystems(
  data: SpaceEvalData,
  blends: Record<string, BlendOptions> = BLEND_PRESETS,
  opts: { perSpace?: boolean; pool?: number; k?: number } = {},
): RetrievalSystem[] {
  const pool = opts.pool ?? 50;
  const k = opts.k ?? 10;
  const cache = new Map<EvalQuery, Map<string, SpaceSims>>();
  const sims = (pc: PreparedConversation, q: EvalQuery) => {
    let m = cache.get(q);
    if (!m) {
      m = new Map();
      const qf = data.query.get(q)!;
      for (const mem of pc.conv.memories) {
        const f = data.memory.get(`${pc.conv.sampleId}/${mem.id}`)!;
        m.set(mem.id, spaceSimilarities(qf, f, { spaces: NON_TEMPORAL_SPACES, warn: () => {} }));
      }
      cache.set(q, m);
    }
    return m;
  };
  const top = (scored: [string, number][], n: number) => scored.sort((a, b) => b[1] - a[1]).slice(0, n).map(([id]) => id);
  const systems: RetrievalSystem[] = [];
  if (opts.perSpace ?? true) {
    for (const id of NON_TEMPORAL_SPACES) {
      systems.push({ name: `only ${id}`, rank: (pc, q) => top([...sims(pc, q)].map(([m, s]) => [m, s[id] ?? -Infinity]), k) });
    }
  }
  for (const [name, options] of Object.entries(blends)) {
    systems.push({
      name: `hybrid+${name}`,
      rank: (pc, q) => {
        const all = sims(pc, q);
        const hits = pc.index.search({ text: q.question, vector: q.vector }, { topK: pool, config: DEFAULT_HYBRID_CONFIG });
        const hybrid = new Map(hits.map((h) => [h.id, h.score]));
        const ws = top([...all].map(([m, s]) => [m, weightedSimilarity(s, options.config, () => {})]), pool);
        const ids = new Set([...hybrid.keys(), ...ws]);
        return blendSpaceScores([...ids].map((id) => ({ id, hybrid: hybrid.get(id), sims: all.get(id)! })), options)
          .slice(0, k)
          .map((h) => h.id);
      },
    });
  }
  return systems;
}

export async function runAblation(convs = 5): Promise<void> {
  const resources = await loadNodeResources();
  const encoder = await loadNodeEncoder();
  const embed = (texts: string[]) => encoder.embed(texts);
  const data = (await loadLocomo(DATA)).slice(0, convs);
  const prepared = await prepare(data, embed);
  const features = await prepareSpaceFeatures(prepared, embed, resources);
  encoder.dispose();
  console.log(formatTable(evaluate(prepared, [hybridSystem('hybrid', DEFAULT_HYBRID_CONFIG), ...spaceSystems(features)])));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : undefined;
  };
  if (process.argv.includes('--ablation')) await runAblation(arg('--convs') ?? 5);
  else await run(arg('--n') ?? 200);
}
