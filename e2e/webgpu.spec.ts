// The encoder's WebGPU path in a real Chromium. Headless Chromium here has WebGPU only through
// SwiftShader (a software "fallback adapter"), so each test launches its own browser with the
// flags it needs, against the config's vite preview server.
//
// What is true here (Chromium 156, 2 cores):
// - With all the SwiftShader flags, WebGPU works: ready in about 10 s (WASM: 3.5 s) and the same
//   vector as WASM/Node, but 20-35x slower (1 text 1.5 s vs 30-80 ms; 32 texts 30 s vs 0.9-1.6 s).
//   So 'auto' declines the software adapter and says so in the load progress, and
//   ?backend=webgpu still runs on it.
// - Without ANGLE/Vulkan on SwiftShader, tfjs-backend-webgpu's synchronous readback (which the
//   graph needs for shape values) goes through a WebGPU OffscreenCanvas; the GPU process cannot
//   create that shared image and the device is lost, so mapAsync fails with "A valid external
//   Instance reference no longer exists". Forcing WebGPU there must fail with that cause.
//
// Those readback findings are tfjs's (USE-lite), so the four tests below them pin USE-lite
// (?encoder=use-lite-en/v1). MiniLM (Transformers.js on onnxruntime-web's WebGPU) has its own
// tests at the end: on the same SwiftShader adapter it gives the WASM vector (the Python reference).
//
// Tagged @webgpu: skip locally with `npx playwright test --grep-invert @webgpu`.
import { chromium, expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import type { EmbedLoadProgress } from '../src/embed/types';
import { nodeVector, SENTENCE } from './fixtures/encoder-reference';
import { cosine, minilmReference } from '../scripts/lib/minilm-reference';

const USE_LITE = '&encoder=use-lite-en/v1';

const SWIFTSHADER = [
  '--enable-unsafe-webgpu',
  '--enable-features=Vulkan',
  '--use-angle=swiftshader',
  '--use-vulkan=swiftshader',
  '--enable-unsafe-swiftshader',
  '--ignore-gpu-blocklist',
];
/** An adapter, but no GPU compositing: WebGPU starts, the first synchronous readback loses the device. */
const WEBGPU_WITHOUT_READBACK = ['--enable-unsafe-webgpu'];

/** Load phases with repeats (byte progress) collapsed, each with its backend. */
function phases(history: EmbedLoadProgress[]): string[] {
  return history.map((p) => (p.backend ? `${p.phase}:${p.backend}` : p.phase)).filter((p, i, a) => p !== a[i - 1]);
}

test.describe('@webgpu encoder on a SwiftShader WebGPU adapter', () => {
  test.describe.configure({ timeout: 90_000 });

  let browser: Browser | undefined;
  const consoleLines: string[] = [];

  async function open(flags: string[], query: string, testInfo: TestInfo): Promise<Page> {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-dev-shm-usage', ...flags],
    });
    const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL, serviceWorkers: 'block' });
    const page = await context.newPage();
    // Worker console messages (the embed worker's warnings) arrive on the page too.
    page.on('console', (m) => consoleLines.push(`${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => consoleLines.push(`pageerror: ${e.message}`));
    await page.goto(`/diagnostics.html${query.startsWith('?') ? query : `?${query.replace(/^&/, '')}`}`);
    return page;
  }

  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach('console', { body: consoleLines.join('\n'), contentType: 'text/plain' });
    }
    consoleLines.length = 0;
    await browser?.close();
    browser = undefined;
  });

  test('asked for WebGPU, the encoder runs on the software adapter and matches the Node encoder', async ({}, testInfo) => {
    const page = await open(SWIFTSHADER, `?backend=webgpu${USE_LITE}`, testInfo);
    const adapter = await page.evaluate(async () => {
      const a = await (navigator as Navigator & { gpu?: { requestAdapter(): Promise<{ info: { architecture: string; isFallbackAdapter: boolean } } | null> } }).gpu?.requestAdapter();
      return a ? { architecture: a.info.architecture, isFallbackAdapter: a.info.isFallbackAdapter } : null;
    });
    expect(adapter).toEqual({ architecture: 'swiftshader', isFallbackAdapter: true });

    await expect(page.getByTestId('encoder-phase')).toHaveText('ready', { timeout: 75_000 });
    await expect(page.getByTestId('encoder-backend')).toHaveText('webgpu');
    const history = await page.evaluate(() => window.__diag.history());
    expect(phases(history)).toEqual(['fetching-model', 'warming-up:webgpu', 'ready:webgpu']);
    const loadMs = await page.evaluate(() => window.__diag.loadMs());
    testInfo.annotations.push({ type: 'webgpu load ms', description: String(loadMs) });

    const v = await page.evaluate(async (s) => Array.from((await window.__diag.embed([s]))[0]), SENTENCE);
    expect(v).toHaveLength(512);
    expect(v.some((x) => x !== 0)).toBe(true); // a readback of zeros would fail here (norm 0) anyway
    expect(cosine(v, nodeVector())).toBeGreaterThan(0.99);
    // Still on WebGPU: the embed did not quietly fall back to WASM mid-run.
    expect((await page.evaluate(() => window.__diag.info())).backend).toBe('webgpu');
  });

  test('on auto, the software adapter is declined with the reason, and WASM embeds correctly', async ({}, testInfo) => {
    const page = await open(SWIFTSHADER, USE_LITE, testInfo);
    await expect(page.getByTestId('encoder-phase')).toHaveText('ready', { timeout: 60_000 });
    await expect(page.getByTestId('encoder-backend')).toHaveText('wasm');
    await expect(page.getByTestId('encoder-message')).toHaveText(
      'WebGPU not used: the WebGPU adapter is a software fallback (google swiftshader), slower than WASM. Using WASM.',
    );
    const history = await page.evaluate(() => window.__diag.history());
    expect(phases(history)).toEqual(['fetching-model', 'warming-up:wasm', 'ready:wasm']);
    expect(history.find((p) => p.phase === 'warming-up')?.message).toMatch(/software fallback \(google swiftshader\)/);

    const v = await page.evaluate(async (s) => Array.from((await window.__diag.embed([s]))[0]), SENTENCE);
    expect(cosine(v, nodeVector())).toBeGreaterThan(0.99);
  });

  test('on auto, a WebGPU warm-up that loses the device falls back to WASM by itself and says why', async ({}, testInfo) => {
    const page = await open(WEBGPU_WITHOUT_READBACK, `?software${USE_LITE}`, testInfo);
    await expect(page.getByTestId('encoder-phase')).toHaveText('ready', { timeout: 75_000 });
    await expect(page.getByTestId('encoder-backend')).toHaveText('wasm');
    const history = await page.evaluate(() => window.__diag.history());
    expect(phases(history)).toEqual(['fetching-model', 'warming-up:webgpu', 'warming-up:wasm', 'ready:wasm']);
    expect(history.find((p) => p.phase === 'warming-up' && p.backend === 'wasm')?.message).toMatch(
      /WebGPU not used: the warm-up failed \(AbortError: .*mapAsync/,
    );
    const v = await page.evaluate(async (s) => Array.from((await window.__diag.embed([s]))[0]), SENTENCE);
    expect(cosine(v, nodeVector())).toBeGreaterThan(0.99);
  });

  test('asked for WebGPU where its readback loses the device, the load fails with that cause', async ({}, testInfo) => {
    const page = await open(WEBGPU_WITHOUT_READBACK, `?backend=webgpu${USE_LITE}`, testInfo);
    await expect(page.getByTestId('encoder-phase')).toHaveText('error', { timeout: 60_000 });
    await expect(page.getByTestId('encoder-message')).toContainText('WebGPU warm-up failed');
    const history = await page.evaluate(() => window.__diag.history());
    expect(phases(history)).toEqual(['fetching-model', 'warming-up:webgpu', 'error']);
    // The adapter's device went away under the synchronous readback (see the header).
    expect(history.at(-1)?.message).toMatch(/WebGPU warm-up failed \(AbortError: .*mapAsync.*\)/);
    const code = await page.evaluate(() => window.__diag.ready.then(() => 'resolved', (e: { code?: string }) => e.code));
    expect(code).toBe('MODEL_LOAD_FAILED');
  });

  test('MiniLM asked for WebGPU runs on the software adapter and gives the WASM vector', async ({}, testInfo) => {
    test.setTimeout(240_000); // ready in about 60 s here under load (WASM: about 10 s)
    const page = await open(SWIFTSHADER, '?backend=webgpu&nofallback', testInfo);
    await expect(page.getByTestId('encoder-phase')).toHaveText('ready', { timeout: 200_000 });
    await expect(page.getByTestId('encoder-backend')).toHaveText('webgpu');
    await expect(page.getByTestId('encoder-id')).toHaveText('all-MiniLM-L6-v2-int8');
    const history = await page.evaluate(() => window.__diag.history());
    expect(phases(history)).toEqual(['fetching-model', 'warming-up:webgpu', 'ready:webgpu']);
    // the independent reference is what WASM (Chromium and Node) gives too (e2e/encoder.spec.ts)
    const ref = minilmReference().slice(0, 4);
    const vs = await page.evaluate(async (texts) => (await window.__diag.embed(texts)).map((v) => Array.from(v)), ref.map((r) => r.text));
    vs.forEach((v, i) => expect(cosine(v, ref[i].vector), ref[i].text).toBeGreaterThan(0.9999));
    expect((await page.evaluate(() => window.__diag.info())).backend).toBe('webgpu');
  });

  test('MiniLM on auto declines the software adapter by the same rule, and WASM embeds correctly', async ({}, testInfo) => {
    const page = await open(SWIFTSHADER, '?nofallback', testInfo);
    await expect(page.getByTestId('encoder-phase')).toHaveText('ready', { timeout: 75_000 });
    await expect(page.getByTestId('encoder-backend')).toHaveText('wasm');
    await expect(page.getByTestId('encoder-message')).toHaveText(
      'WebGPU not used: the WebGPU adapter is a software fallback (google swiftshader), slower than WASM. Using WASM.',
    );
    const [ref] = minilmReference();
    const v = await page.evaluate(async (s) => Array.from((await window.__diag.embed([s]))[0]), ref.text);
    expect(cosine(v, ref.vector)).toBeGreaterThan(0.9999);
  });
});
