// The small store the engine's deep-search reader tests share (workers/engine-deep-judge.test.ts,
// engine-deep-model.test.ts): one session of six turns a minute apart; the query is nearest 'a' and
// 'b' (the top 2), 'x' is their temporal neighbour (one and two turns after 'b'), which only a
// stronger reader finds close; the judge's vectors put 'x' at cosine 1 with the query, the others at 0.
import { serializeSpace } from '../core/spaces';
import type { RecallOptionsInput } from '../core/recall';
import type { EngineJudgeVectors } from '../protocol/engine';
import { EngineCore } from '../../workers/engine-core';
import { engineDoc } from './engine';

export const deepTexts: [string, string, number[]][] = [
  ['a', 'garden shed roof leaks', [1, 0]],
  ['b', 'garden hose is cracked', [0.9, 0.1]],
  ['x', 'bought tomato seedlings', [0, 1]],
  ['y', 'car needs new tyres', [0.1, 0.9]],
  ['z', 'dentist on tuesday', [0.2, 0.8]],
  ['w', 'phone bill paid', [0.3, 0.7]],
];
export const deepDocs = deepTexts.map(([id, text, v], i) => ({ ...engineDoc(id, text, v), createdAt: 1_000 + i * 60_000, validFrom: 1_000 + i * 60_000, sessionId: 's1' }));
export const deepQuery = { text: 'garden', features: { E1: serializeSpace('E1', Float32Array.of(1, 0)) }, sessionId: 'tab' };
export const deepJudged: EngineJudgeVectors = {
  query: Float32Array.of(1, 0),
  vectors: Object.fromEntries(deepTexts.map(([id]) => [id, id === 'x' ? Float32Array.of(1, 0) : Float32Array.of(0, 1)])),
  queryMs: 0,
};

/** Deep search active at threshold 1 (every query escalates), top 2. */
export const deepActive = (more: RecallOptionsInput['deepSearch'] = {}): RecallOptionsInput => ({ topK: 2, deepSearch: { mode: 'active', threshold: 1, ...more } });

/** An engine holding the store. */
export function deepEngine(): EngineCore {
  const core = new EngineCore();
  core.load(deepDocs, { dim: 2 });
  return core;
}
