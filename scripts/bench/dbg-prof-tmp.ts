import { Session } from 'node:inspector/promises';
import { serializeSpace } from '../../src/core/spaces';
import type { EngineDoc } from '../../src/protocol/engine';
import { EngineCore } from '../../workers/engine-core';
import { corpus, engineDocsOf } from './recall';
import { DIM, features } from './scale-node';
const NOW = Date.UTC(2026, 10, 2);
const n = Number(process.argv[2] ?? 100000);
const c = corpus(n, 200, DIM);
const feats = await features(c, n);
const engine = new EngineCore();
const docs = engineDocsOf(c, feats.docs);
engine.load(docs, { dim: DIM });
const model = docs[123];
docs.length = 0;
const recall = (q: number) => engine.recall({ text: c.queries[q].text, features: feats.queries[q], now: NOW }, { profile: 'BALANCED', assocHops: 3 });
for (let q = 0; q < 10; q++) await recall(q);
const s = new Session();
s.connect();
await s.post('Profiler.enable');
await s.post('Profiler.setSamplingInterval', { interval: 200 });
await s.post('Profiler.start');
for (let k = 0; k < 6; k++) {
  engine.upsert({ ...model, id: `cap-${k}`, features: { ...model.features, E1: serializeSpace('E1', Float32Array.from(c.docs[123].vector, (x, j) => x + 0.02 * Math.sin(k + j))) } });
  await recall(k % 10);
}
const { profile } = await s.post('Profiler.stop');
const self = new Map<string, number>();
const byId = new Map(profile.nodes.map((nd) => [nd.id, nd]));
const dt = profile.timeDeltas!;
const counts = new Map<number, number>();
profile.samples!.forEach((id, i) => counts.set(id, (counts.get(id) ?? 0) + (dt[i] ?? 0)));
// inclusive time per function name (by walking parents)
const parent = new Map<number, number>();
for (const nd of profile.nodes) for (const ch of nd.children ?? []) parent.set(ch, nd.id);
const incl = new Map<string, number>();
for (const [id, t] of counts) {
  const nd = byId.get(id)!;
  const k = `${nd.callFrame.functionName}@${nd.callFrame.url.split('/').slice(-2).join('/')}:${nd.callFrame.lineNumber}`;
  self.set(k, (self.get(k) ?? 0) + t);
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const c2 = byId.get(cur)!;
    const k2 = `${c2.callFrame.functionName}@${c2.callFrame.url.split('/').slice(-2).join('/')}:${c2.callFrame.lineNumber}`;
    if (seen.has(k2)) continue;
    seen.add(k2);
    incl.set(k2, (incl.get(k2) ?? 0) + t);
  }
}
const total = [...counts.values()].reduce((a, b) => a + b, 0);
console.log('total ms', (total / 1000).toFixed(0));
console.log('SELF'); for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log((v / 1000).toFixed(0).padStart(7), k);
console.log('INCL'); for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 45)) console.log((v / 1000).toFixed(0).padStart(7), k);
