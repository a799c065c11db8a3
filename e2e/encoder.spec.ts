// The sentence encoder in a real Chromium: diagnostics.html starts the embed worker from the
// production build; it must reach "ready" on WASM and agree with the Node encoder.
import { expect, test } from '@playwright/test';
import { nodeVector, SENTENCE } from './fixtures/encoder-reference';

test('the encoder loads on WASM and matches the Node encoder', async ({ page }) => {
  await page.goto('/diagnostics.html?backend=wasm');
  await expect(page.getByTestId('encoder-phase')).toHaveText('ready', { timeout: 90_000 });
  await expect(page.getByTestId('encoder-backend')).toHaveText('wasm');

  const info = await page.evaluate(() => window.__diag.ready);
  expect(info).toMatchObject({ dim: 512, backend: 'wasm' });
  const history = await page.evaluate(() => window.__diag.history());
  const phases = history.map((p) => p.phase).filter((p, i, a) => p !== a[i - 1]);
  expect(phases).toEqual(['fetching-model', 'warming-up', 'ready']);
  // Byte progress covered the weights (about 26 MB). The total needs Content-Length, which a
  // service-worker cache may drop, so it is checked only when present.
  const lastFetch = history.filter((p) => p.phase === 'fetching-model').at(-1);
  expect(lastFetch?.loaded).toBeGreaterThan(20e6);
  if (lastFetch?.total !== undefined) expect(lastFetch.loaded).toBe(lastFetch.total);

  const v = await page.evaluate(async (s) => Array.from((await window.__diag.embed([s]))[0]), SENTENCE);
  expect(v).toHaveLength(512);
  const norm = Math.sqrt(v.reduce((a, x) => a + x * x, 0));
  expect(Math.abs(norm - 1)).toBeLessThan(1e-4);

  const ref = nodeVector();
  expect(ref).toHaveLength(512);
  const cosine = v.reduce((a, x, i) => a + x * ref[i], 0);
  expect(cosine).toBeGreaterThan(0.99);
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
