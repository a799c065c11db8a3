// The sample collection (src/sample) in the app's engine, in Node: every memory featurized in the
// thirteen spaces by the embed worker's own code (featurize-core) over the app's default encoder (SAMPLE_ENCODER=use-lite for USE-lite)
// (encoder calls cached on disk, so a second run takes seconds), loaded into EngineCore. Used by
// the divergence and chain measurements (scripts/measure-explore.ts).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LexicalResources } from '../../src/core/features';
import type { SpaceFeatures } from '../../src/core/spaces';
import { deserializeFeatures } from '../../src/core/spaces';
import type { SampleMemory } from '../../src/sample';
import type { FeaturizeItem, FeaturizedItem } from '../../src/protocol/embed';
import type { EngineDoc } from '../../src/protocol/engine';
import type { TextEncoder } from '../../src/features';
import { EngineCore } from '../../workers/engine-core';
import { featurizeItems, featurizeQueryText } from '../../workers/featurize-core';
import { embedCached } from './embedding-cache';
import { loadNodeEmbedder, type NodeEmbedder } from './node-embedder';
import { loadNodeResources } from './resources-node';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');

export interface SampleEngine {
  core: EngineCore;
  memories: (SampleMemory & { id: string; at: number })[];
  encoder: NodeEmbedder;
  resources: LexicalResources;
  cached: TextEncoder;
  /** A text's content spaces as a query (serialised, as the services send it). */
  queryFeatures(text: string): Promise<Awaited<ReturnType<typeof featurizeQueryText>>>;
  /** A new memory's spaces, and it indexed in the engine (a capture). */
  capture(id: string, text: string, at: number, sessionId: string, position: number, tags?: string[]): Promise<Awaited<ReturnType<typeof featurizeItems>>[number]>;
  featuresOf(id: string): SpaceFeatures | undefined;
}

export function sampleMemories(): SampleMemory[] {
  return JSON.parse(readFileSync(join(root, 'src/sample/memories.json'), 'utf8')) as SampleMemory[];
}

export async function loadSampleEngine(log: (m: string) => void = () => {}): Promise<SampleEngine> {
  const encoder = await loadNodeEmbedder(process.env.SAMPLE_ENCODER); // the app's default encoder unless SAMPLE_ENCODER names another
  const resources = await loadNodeResources();
  const cached: TextEncoder = { embed: (texts) => embedCached(encoder, texts) };
  const raw = sampleMemories();
  const position = new Map<string, number>();
  const memories = raw.map((m, i) => ({ ...m, id: `s${String(i).padStart(3, '0')}`, at: Date.parse(m.createdAt) }));
  const items: FeaturizeItem[] = memories.map((m) => {
    const p = position.get(m.sessionId) ?? 0;
    position.set(m.sessionId, p + 1);
    return { text: m.text, createdAt: m.at, sessionPosition: p, media: m.media };
  });
  const t0 = performance.now();
  const featurized: FeaturizedItem[] = [];
  for (let s = 0; s < items.length; s += 64) featurized.push(...(await featurizeItems(items.slice(s, s + 64), cached, resources)));
  log(`featurized ${items.length} sample memories in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const docs: EngineDoc[] = memories.map((m, i) => ({
    id: m.id,
    text: m.text,
    tags: m.tags,
    importance: m.importance,
    createdAt: m.at,
    validFrom: m.at,
    validTo: null,
    status: 'active',
    sessionId: m.sessionId,
    features: featurized[i].spaces,
  }));
  const core = new EngineCore();
  core.load(docs, { dim: encoder.info().dim, encoder: encoder.info().id });
  const byId = new Map(memories.map((m, i) => [m.id, deserializeFeatures(featurized[i].spaces)]));
  return {
    core,
    memories,
    encoder,
    resources,
    cached,
    queryFeatures: (text) => featurizeQueryText(text, cached, resources),
    async capture(id, text, at, sessionId, pos, tags = []) {
      const [f] = await featurizeItems([{ text, createdAt: at, sessionPosition: pos }], cached, resources);
      core.upsert({ id, text, tags, importance: 0.5, createdAt: at, validFrom: at, validTo: null, status: 'active', sessionId, features: f.spaces });
      byId.set(id, deserializeFeatures(f.spaces));
      return f;
    },
    featuresOf: (id) => byId.get(id),
  };
}
