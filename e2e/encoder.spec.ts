// The sentence encoders in a real Chromium: diagnostics.html starts the embed worker from the
// production build. The default, MiniLM (Transformers.js on onnxruntime-web WASM), must reach
// "ready" and give the vectors of the independent Python reference (onnxruntime + tokenizers from
// PyPI, e2e/fixtures/minilm-reference.json) that Node's vectors match too; USE-lite, still
// selectable and the fallback, must agree with its Node encoder.
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { cosine, minilmReference } from '../scripts/lib/minilm-reference';
import { nodeVector, SENTENCE } from './fixtures/encoder-reference';

/** Load phases with repeats (byte progress) collapsed. */
const phasesOf = (history: { phase: string }[]) => history.map((p) => p.phase).filter((p, i, a) => p !== a[i - 1]);

test('MiniLM loads on WASM from our origin and matches the Python reference', async ({ page, context }, testInfo) => {
  const ours = new URL(testInfo.project.use.baseURL!).host;
  const outside: string[] = [];
  context.on('request', (r) => {
    const u = new URL(r.url());
    if (u.protocol !== 'blob:' && u.protocol !== 'data:' && u.host !== ours) outside.push(r.url());
  });
  await page.goto('/diagnostics.html?backend=wasm');
  await expect(page.getByTestId('encoder-phase')).toHaveText('ready', { timeout: 90_000 });
  await expect(page.getByTestId('encoder-backend')).toHaveText('wasm');
  await expect(page.getByTestId('encoder-id')).toHaveText('all-MiniLM-L6-v2-int8');

  const info = await page.evaluate(() => window.__diag.ready);
  expect(info).toMatchObject({ id: 'all-MiniLM-L6-v2-int8', dim: 384, backend: 'wasm' });
  const history = await page.evaluate(() => window.__diag.history());
  expect(phasesOf(history)).toEqual(['fetching-model', 'warming-up', 'ready']);
  // byte progress covered the weights (22.9 MB) and the tokenizer
  const lastFetch = history.filter((p) => p.phase === 'fetching-model').at(-1);
  expect(lastFetch?.loaded).toBeGreaterThan(23e6);

  const ref = minilmReference();
  const vs = await page.evaluate(async (texts) => (await window.__diag.embed(texts)).map((v) => Array.from(v)), ref.map((r) => r.text));
  vs.forEach((v, i) => {
    expect(v).toHaveLength(384);
    expect(cosine(v, ref[i].vector), ref[i].text).toBeGreaterThan(0.9999);
  });
  // late interaction's token matrices: the worker's equal Node's (the eval's, scripts/lab/late-node-tokens.ts),
  // one shared function (src/embed/token-matrix.ts): the same token ids, every row the same vector
  const nodeTokens = JSON.parse(readFileSync(new URL('./fixtures/minilm-tokens.json', import.meta.url), 'utf8')) as { text: string; ids: number[]; dim: number; vectors: string }[];
  const ms = await page.evaluate(async (texts) => window.__diag.tokens(texts), nodeTokens.map((t) => t.text));
  nodeTokens.forEach((n, i) => {
    const b = Buffer.from(n.vectors, 'base64');
    const want = new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
    expect(ms?.[i].ids, n.text).toEqual(n.ids);
    for (let r = 0; r < n.ids.length; r++) {
      const row = (v: ArrayLike<number>) => Array.from({ length: n.dim }, (_, k) => v[r * n.dim + k]);
      expect(cosine(row(ms![i].vectors), row(want)), `${n.text} token ${r}`).toBeGreaterThan(0.999);
    }
  });
  expect(outside).toEqual([]); // nothing from a hub or a CDN
});

test('USE-lite is still selectable and matches the Node encoder', async ({ page }) => {
  await page.goto('/diagnostics.html?backend=wasm&encoder=use-lite-en/v1');
  await expect(page.getByTestId('encoder-phase')).toHaveText('ready', { timeout: 90_000 });
  await expect(page.getByTestId('encoder-id')).toHaveText('use-lite-en/v1');
  const info = await page.evaluate(() => window.__diag.ready);
  expect(info).toMatchObject({ id: 'use-lite-en/v1', dim: 512, backend: 'wasm' });
  const v = await page.evaluate(async (s) => Array.from((await window.__diag.embed([s]))[0]), SENTENCE);
  expect(v).toHaveLength(512);
  expect(cosine(v, nodeVector())).toBeGreaterThan(0.99);
});

test('without MiniLM files the encoder falls back to USE-lite and says why', async ({ page }) => {
  await page.goto('/diagnostics.html?backend=wasm&models=/no-such-models/');
  await expect(page.getByTestId('encoder-phase')).toHaveText('ready', { timeout: 90_000 });
  await expect(page.getByTestId('encoder-id')).toHaveText('use-lite-en/v1');
  await expect(page.getByTestId('encoder-message')).toContainText('MiniLM could not be loaded');
  await expect(page.getByTestId('encoder-message')).toContainText('using USE-lite instead');
  expect(await page.evaluate(() => window.__diag.ready)).toMatchObject({ id: 'use-lite-en/v1', dim: 512 });
  const v = await page.evaluate(async (s) => Array.from((await window.__diag.embed([s]))[0]), SENTENCE);
  expect(cosine(v, nodeVector())).toBeGreaterThan(0.99);
});

test('an empty text is refused with EMPTY_TEXT and the encoder keeps working', async ({ page }) => {
  await page.goto('/diagnostics.html?backend=wasm');
  const code = await page.evaluate(async () => {
    await window.__diag.ready;
    return window.__diag.embed(['']).then(
      () => 'resolved',
      (e: { code?: string }) => e.code ?? 'no code',
    );
  });
  expect(code).toBe('EMPTY_TEXT');
  const n = await page.evaluate(async () => (await window.__diag.embed(['still here', 'and here'])).length);
  expect(n).toBe(2);
});
