// Cost of the thirteen spaces per memory, against the sentence encoder alone (the budget: all
// featurizers together may cost at most as much again as the encoder). Memories are LoCoMo
// turns (eval data, read from /work/shared/data, never bundled). Prints a table; never fails
// on timings.   npx tsx scripts/bench/spaces.ts [--n 200]
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SPACE_IDS } from '../../src/core/spaces';
import type { SpaceId } from '../../src/core/types';
import { featurize, serializeFeatures, type FeaturizeOptions } from '../../src/features';
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

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const i = process.argv.indexOf('--n');
  await run(i > 0 ? Number(process.argv[i + 1]) : 200);
}
