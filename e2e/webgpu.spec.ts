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
// Tagged @webgpu: skip locally with `npx playwright test --grep-invert @webgpu`.
import { chromium, expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import type { EmbedLoadProgress } from '../src/embed/types';

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

const SENTENCE = 'I took my car to the garage to get the engine fixed.';
// Same reference as encoder.spec.ts: scripts/lib/node-encoder.ts (tfjs wasm in Node) on
// SENTENCE, 512 float32 little-endian, base64.
const NODE_VECTOR_B64 =
  'ZpkavT/jZTyBSmU9GTeKvbkuBz3OGpE9MTmGPVS6Pz1uL4G97XiCPYKzbj3YTWW9O+Y8PcSxbz24mYC9JqqAPSvGUj1nwxA9JBM6PRFeCD3mnVi9Ut+fvJ2WkL0AFiG7/IlZvAoSMzyCxpG8h2f6PKn3+Ds60mG9nEAXvaTbIz3smUE9hQiHvXLxibsG6io9MDAwvbJLJL1yQoC9LZ5wPdU3QD0lLPy86F1dPW+vzTwY67C8jtqDvU7AJb0nzIE9xw5oPYFffrxa4Yo9w1vvPKIhQzyZhiA9lcHDO9+rgr1Jg4297vtyvcAd+rwdV+O7ka7/u76i1Dwc2V+9uFKOvet5bjwuhUU9KGR6O0DSjz2ObRC9zV2MvVUhXzzUyfO82WaOPY6mlTxuXYy9+qHZvOI5l7z6hYc9WGIJvfc8Oj2adxA9oCRwvQDxrbs31TI9WVVcPRhBZj3IUZA8ytlTPVLV6DwpKVK9OBjtPLX9izobQgs9QGRQvRVxFb3cOBe9hBWTvCE/er1X/sq8sJVOvZdhSj04NDG9Jd8lPEJ8uzwqd1+98MzQvJPTUTsz61u9Jss/vSKvhruBwSC9IR2QPRoZlTxS3ra8doGQPW6GqTwSc4695aMQvaG2bD33giY9kim/uy2EcD1XmIa8S/HFuqL9cb2O0EK9SzguPeVhjz2NAho8JAfCPGlQfz1RG1y9bMNEO2j5WD0So4C8OtIzvf/h7TwIBQE9bX4gPIUWij3XrYM9TMcXPUmhez0GvT891qzKvLFmOr1TSEo9eMlAvdztvrx02Vq9D0GFPUPXN701kP27QBGpPBP4kD1duW28knKPvVdxobv/slM9YwkePdU4Ab2sDIE9uzhePUNzV70E0yS9f//4PCpFND1cVEi91I+AvXUASD2Lkzo95x1mPEalLb3niI896PyCPdzJZD3LOwc9pS0gvVQaOj0+s7Y7NV9jvYqpJL0HhL681nzMPB4TFr3dLG+9mpNcPZ/mcT3Tc0+9ErGxvHsxbD1FPPw8xHsdPEt247zavhQ90Pt1vfYSMz2ZY089mgSTvLJBB70T5eo7MYdlPdUyPb0/ZoK9f2sJPdlzF71uLHS9XXqBPC7cdD3C8xI9/jSDvQa7obz9itm8zdFSvf2ySb1UJhm9+yBzPBnc7TwZ3HM92umYO7nWwzxu0329dUZQPUHBjb3V7S+9HCmyux/jA72IBy296fDLvBoNeD1+KBo94UesPDPByrwidoQ92JRvPdIe6jytz3Q9wUJUPUdaF70h3+w8xReDvZURXD1sLsg8mM0PvfuNir3w3Ao9NG01vckbY70eG4K8GRV3PFnQ2LxAsn899YOgvD61a72sJJ08hbVjPc8M3zzrKXo7bmRgPffzCL1KLVu9wNapPO4RUz1x6Kk58SGDPQTr+rxo1VO9bQAiPVdXQr09FVw91V70uyCCrDyeLnQ9TUdbPQlZhr14HUE9xQdsvVapkD3B0FA73eUBvSdRaL0k9RI8N5YovaIAh70mrVG9qwDBvAo3Nb1banU93fSNPL0lybzbPQ+9W1JrPeENGL3+no49cJdDPC/y1ryhMR49qQ2VO4TrDL3l+lQ9xY/6PBX/tLv9f/6831KevPA9kjxPhYS9pWrWvA+KhDsJ2tM8HqjvPErgGTxdujS8Vh1oPYEOozqintG8F8BZvbBXib3CmEK9X+QwPWGh4TwEeT88pl1Rva0FyzzzaW882gcuvYunmzyRwOA7E929vC3KWr3KjWO93xSKvc5lcLxnve+8iR3Xu2W7hz0P5UQ9eIV6Ozx0Z73TPi+9cY3LPHmxkLwebeg8k8GAveOGMDumjV69nbOJPZYu5bs04Io90zx2PSi/Qj2x4w09GlGHPez/bb3Eer28/uqPPWwEQL24WNQ7Iwd6vY+LUj0P/OU8ysp/PGCljr0oC0C8888GvSZZBzyQxX694Cs4PTRPHb3zBE68iohdvdrHgr3TMQS9sSPPvMJ0jb2t6jQ9d11QPJ75CbzshM+8dNt/vepYW72oMi69pwdiPdPXir0RaRC9hX+nOwiOIzxGrbW8jjg0PQ8mLL1PU4+93Zcjveimhb3yyq67vWIqvD+K4rwGQnY9SEBWPGyB37uq0IE93wttPa9bV728Qz09JrtYPZ/3jz1gisc8kctsPZvkZT2g/8a7/Z8xPZNDXj1fNKe8BWc7uzkBiDy/onq9VT48PebtVT1mDCK9i9JPvQOiT7zPrpC9nW7ovAX7rbxDlC29Ye2Xu3+fZz1tiEk98UtguxGWP728H9O8wl2QPVycmTwXNtO6WL2DvUzEf70WgFQ6pfBgPNeidTxK8xQ9nYB3vVI2QL1bjss8zhYoPZEGPz157Uo9KrWCPe1FJDtcL6S8+kmPPR+8obzcZVI9FFCUOp8KDj1q7Yc90UZZPYQQiT0sE4u9maoNPKRPijvXWak8+NwiPIuWT71gn9Y7Rr6KPasFhj0O0yq9a855PbFR+jw2JI894oIkPbMuh73MZl89aNgjPVY+g70oNgc8xOx3vbYG3jxiObE8equ8PDB+i7w2jFa9l9qQPbxmtrz95re8/hBnvUFNML0pntA8DGtIPaD0bL3R9z07ZHY+vRlRdLwHjU+9y3FrvaYH8Lz123s81oWjvLS5hb2NGEA9/ZhgPWPdGDtHvpA9fcAzvUzd77vubv48D9luvUw9jr27ZwW9TOc2PciEa70VVCM9kLplvdytSb0=';

function nodeVector(): Float32Array {
  const b = Buffer.from(NODE_VECTOR_B64, 'base64');
  return new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
}

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
}

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
    await page.goto(`/diagnostics.html${query}`);
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
    const page = await open(SWIFTSHADER, '?backend=webgpu', testInfo);
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
    const page = await open(SWIFTSHADER, '', testInfo);
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
    const page = await open(WEBGPU_WITHOUT_READBACK, '?software', testInfo);
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
    const page = await open(WEBGPU_WITHOUT_READBACK, '?backend=webgpu', testInfo);
    await expect(page.getByTestId('encoder-phase')).toHaveText('error', { timeout: 60_000 });
    await expect(page.getByTestId('encoder-message')).toContainText('WebGPU warm-up failed');
    const history = await page.evaluate(() => window.__diag.history());
    expect(phases(history)).toEqual(['fetching-model', 'warming-up:webgpu', 'error']);
    // The adapter's device went away under the synchronous readback (see the header).
    expect(history.at(-1)?.message).toMatch(/WebGPU warm-up failed \(AbortError: .*mapAsync.*\)/);
    const code = await page.evaluate(() => window.__diag.ready.then(() => 'resolved', (e: { code?: string }) => e.code));
    expect(code).toBe('MODEL_LOAD_FAILED');
  });
});
