import { describe, expect, it } from 'vitest';
import { fetchUseLite } from './fetch-model';

const vocab = JSON.stringify([['\ufffd', 0], ['<s>', 0], ['</s>', 0], ['a', 0], ['b', 0], ['c', 0], ['▁x', -1]]);
const model = JSON.stringify({
  modelTopology: { node: [] },
  weightsManifest: [{ paths: ['s1', 's2'], weights: [{ name: 'w', shape: [3], dtype: 'float32' }] }],
});
const files: Record<string, Uint8Array> = {
  '/m/model.json': new TextEncoder().encode(model),
  '/m/vocab.json': new TextEncoder().encode(vocab),
  '/m/s1': new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]),
  '/m/s2': new Uint8Array([9, 10, 11, 12]),
};
const fakeFetch = (async (url: string) => {
  const body = files[url];
  if (!body) return new Response('missing', { status: 404 });
  return new Response(body.slice().buffer as ArrayBuffer, { headers: { 'content-length': String(body.byteLength) } });
}) as typeof fetch;

describe('fetchUseLite', () => {
  it('returns artifacts with the shards in manifest order and reports byte progress to the total', async () => {
    const progress: Array<[number, number | undefined]> = [];
    const r = await fetchUseLite('/m/', (l, t) => progress.push([l, t]), fakeFetch);
    const total = model.length + new TextEncoder().encode(vocab).byteLength + 12;
    expect(r.bytes).toBe(total);
    expect(progress.at(-1)).toEqual([total, total]);
    expect(progress.every(([l], i) => i === 0 || l >= progress[i - 1][0])).toBe(true);
    const shards = r.artifacts.weightData as ArrayBuffer[];
    expect(shards.map((b) => Array.from(new Uint8Array(b)))).toEqual([[1, 2, 3, 4, 5, 6, 7, 8], [9, 10, 11, 12]]);
    expect(r.artifacts.weightSpecs).toEqual([{ name: 'w', shape: [3], dtype: 'float32' }]);
    expect(r.vocabulary[6]).toEqual(['▁x', -1]);
  });

  it('fails with MODEL_LOAD_FAILED naming the missing file', async () => {
    const err = await fetchUseLite('/nowhere/', undefined, fakeFetch).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'MODEL_LOAD_FAILED' });
    expect((err as { detail: string }).detail).toContain('/nowhere/model.json: HTTP 404');
  });
});
