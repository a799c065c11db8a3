// Issue 11's "a low-confidence query escalates" at the shipped defaults: deepSearch with the shipped
// MiniLM trigger model (calibration.ts) and threshold 0.3, no override.
import { describe, expect, it } from 'vitest';
import { calibrationFor, MINILM_CALIBRATION_ID } from '../pipeline/calibration';
import { deepSearch, DEEP_SEARCH_DEFAULTS, OfflineReader, type PoolDoc } from '.';

const timers = { setTimeout: (f: () => void, ms: number) => setTimeout(f, ms), clearTimeout: (h: never) => clearTimeout(h) };
const docs: PoolDoc[] = ['m0', 'm1', 'm2'].map((id, i) => ({ id, sessionId: 's', createdAt: i, status: 'active', deletedAt: null, validFrom: 0, validTo: null }));
const run = (primary: { id: string; score: number }[]) =>
  deepSearch({
    query: { text: 'harbour dinner', features: {} },
    primary,
    topK: 2,
    options: { ...DEEP_SEARCH_DEFAULTS, mode: 'shadow' },
    source: { docs },
    scope: {},
    candidateOf: (id) => ({ id, text: id, createdAt: 0 }),
    reader: new OfflineReader(),
    timers,
    confidenceModel: calibrationFor(MINILM_CALIBRATION_ID).confidence,
  });

describe('the shipped trigger at the default threshold (0.3)', () => {
  it('a strong but flat top 2 escalates: z = 1.644 - 3.871 x 0.9 - 0.288 x 0.05 / 0.9 + 8.975 x 0.05 / 0.9 = -1.3573, p 0.205', async () => {
    const out = await run([
      { id: 'm0', score: 0.9 },
      { id: 'm1', score: 0.85 },
    ]);
    const z = 1.644 - 3.871 * 0.9 - (0.288 * 0.05) / 0.9 + (8.975 * 0.05) / 0.9;
    expect(z).toBeCloseTo(-1.3573, 4);
    expect(out.report.confidence.value).toBeCloseTo(1 / (1 + Math.exp(-z)), 10);
    expect(out.report.status).toBe('shadow');
    expect(out.report.pool.map((p) => p.id)).toEqual(['m0', 'm1', 'm2']);
  });

  it('a peaked top 2 does not: z = 1.644 - 3.4839 - 0.288 x 2/3 + 8.975 x 2/3 = 3.9514, p 0.981', async () => {
    const out = await run([
      { id: 'm0', score: 0.9 },
      { id: 'm1', score: 0.3 },
    ]);
    expect(out.report.confidence.value).toBeCloseTo(1 / (1 + Math.exp(-(1.644 - 3.871 * 0.9 + ((8.975 - 0.288) * 2) / 3))), 10);
    expect(out.report.status).toBe('confident');
    expect(out.report.pool).toEqual([]);
  });
});
