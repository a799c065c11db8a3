// The engine runs the ranking's session-context stage over its own sessions (meta), per encoder.
import { describe, expect, it } from 'vitest';
import { serializeSpace } from '../src/core/spaces';
import { engineDoc } from '../src/testing/engine';
import { EngineCore } from './engine-core';

const doc = (id: string, text: string, v: number[], sessionId: string, createdAt: number) => ({ ...engineDoc(id, text, v), sessionId, createdAt, validFrom: createdAt });
const q = { text: 'lake festival', features: { E1: serializeSpace('E1', new Float32Array([1, 0])) } };

describe('EngineCore: session context', () => {
  it("MiniLM: the reply right after a strong hit gains 0.1 of its score; the neighbours follow edits", async () => {
    const core = new EngineCore();
    core.load(
      [doc('ask', 'did you go to the lake festival', [1, 0], 's1', 1), doc('reply', 'yes last saturday with the kids', [0, 1], 's1', 2), doc('other', 'photos from a walk', [0, 1], 's2', 50)],
      { dim: 2, encoder: 'all-MiniLM-L6-v2-int8' },
    );
    // ask: dense min-max 1 and idf coverage 1 -> 0.5 + 0.5 = 1 (no space blend: E1 only);
    // reply: no word, cosine 0 (the dense minimum) -> 0, plus 0.1 x ask's 1 = 0.1; other stays 0
    const score = async () => new Map((await core.recall(q, { topK: 3 })).results.map((r) => [r.id, r.score]));
    const s = await score();
    expect(s.get('ask')).toBeCloseTo(1, 9);
    expect(s.get('reply')).toBeCloseTo(0.1, 9);
    expect(s.get('other') ?? 0).toBeCloseTo(0, 9);
    // a memory saved between them takes the reply's place next to the question
    core.upsert(doc('between', 'we took the train', [0, 1], 's1', 1.5));
    const t = await score();
    expect(t.get('between')).toBeCloseTo(0.1, 9);
    expect(t.get('reply') ?? 0).toBeCloseTo(0, 9);
  });
  it('USE-lite, and an encoder nobody calibrated (neutral defaults), keep the stage off', async () => {
    for (const encoder of ['use-lite-en/v1', 'folder:0123456789ab/q8']) {
      const core = new EngineCore();
      core.load([doc('ask', 'did you go to the lake festival', [1, 0], 's1', 1), doc('reply', 'yes last saturday with the kids', [0, 1], 's1', 2)], { dim: 2, encoder });
      const r = (await core.recall(q, { topK: 2 })).results;
      expect(r.find((x) => x.id === 'reply')?.score ?? 0).toBeCloseTo(0, 9);
    }
  });
});
