// The model manager (issue 8) in Chromium: the encoders on offer, a download from a hub stand-in
// (a real HTTP server on the loopback interface serving the bundled MiniLM files in the hub's URL
// layout; the hub's origin is routed to it, so the app's real hub URL and CSP are exercised),
// the faults a download must survive, and a switch of encoders with a reload in the middle,
// search working throughout, and offline use afterwards.
import { join } from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { AppPage } from './pages/app-page';
import { DataPage } from './pages/data-page';
import { ModelsPage } from './pages/models-page';
import { entryFor, readFolder, startHubServer, type HubRepo, type HubServer } from '../src/testing/hub-server';
import type { EncoderEntry } from '../src/embed/catalogue';

const MINILM = 'all-MiniLM-L6-v2-int8';
const USE_LITE = 'use-lite-en/v1';
const BGE = 'hub:Xenova/bge-small-en-v1.5@ea104dacec62/q8';
const REPO: HubRepo = { repo: 'test-org/minilm-copy', revision: 'c'.repeat(40), files: readFolder(join(process.cwd(), 'public/models/all-MiniLM-L6-v2-int8')) };
const WEIGHTS = 'onnx/model_quantized.onnx';

let hub: HubServer;
let copy: EncoderEntry;

test.beforeAll(async () => {
  hub = await startHubServer([REPO]);
  copy = await entryFor(REPO, { label: 'MiniLM (test copy from the hub)', summary: 'The bundled MiniLM files, served by the test hub.', dim: 384, pooling: 'mean', dtype: 'q8' });
});
test.afterAll(() => hub.close());

/** The hub's origin answered by the loopback server (same paths); a dropped connection is a network failure. */
async function routeHub(context: BrowserContext): Promise<void> {
  await context.route(/^https:\/\/([\w-]+\.)*(huggingface\.co|hf\.co)\//, async (route) => {
    const url = new URL(route.request().url());
    try {
      const response = await route.fetch({ url: hub.base + url.pathname, maxRedirects: 0 });
      await route.fulfill({ response });
    } catch {
      await route.abort('internetdisconnected');
    }
  });
}

/** The test model in the catalogue, and a record of the largest download progress the page showed. */
async function prepare(page: Page): Promise<void> {
  await page.addInitScript((models) => {
    (globalThis as { __MNEMOGRAPH_TEST_HUB_MODELS__?: unknown }).__MNEMOGRAPH_TEST_HUB_MODELS__ = models;
    const w = window as unknown as { __maxLoaded: number };
    w.__maxLoaded = 0;
    new MutationObserver(() => {
      for (const el of document.querySelectorAll('[data-testid="model-download-progress"]')) {
        const n = Number(el.getAttribute('data-loaded'));
        if (n > w.__maxLoaded) w.__maxLoaded = n;
      }
    }).observe(document, { subtree: true, childList: true, attributes: true });
  }, [copy]);
}

const keptFiles = (page: Page) =>
  page.evaluate(async () => (await (await caches.open('mnemograph-models-v1')).keys()).map((r) => new URL(r.url).pathname).sort());

test.beforeEach(async ({ page, context }) => {
  for (const f of REPO.files.keys()) hub.fault(f, undefined);
  hub.requests.length = 0;
  await routeHub(context);
  await prepare(page);
});

test('lists the bundled and hub encoders with size, licence, dimension and prefixes', async ({ page }) => {
  const app = new AppPage(page);
  await app.goto();
  await app.waitReady();
  const models = new ModelsPage(page);
  await models.open();
  await expect(models.items).toHaveCount(8); // 2 bundled, 5 hub, the test copy
  await expect(models.active).toHaveAttribute('data-model-id', MINILM);
  await expect(models.item(MINILM)).toHaveAttribute('data-state', 'active');
  await expect(models.item(MINILM).getByTestId('model-badge')).toHaveText('In use');
  await expect(models.item(USE_LITE)).toHaveAttribute('data-state', 'available');
  const bge = models.item(BGE);
  await expect(bge).toHaveAttribute('data-state', 'downloadable');
  await expect(bge.getByTestId('model-size')).toHaveText('33 MB');
  await expect(bge.getByTestId('model-licence')).toHaveText('MIT');
  await bge.getByText('details').click();
  await expect(bge.getByTestId('model-dim')).toHaveText('384');
  await expect(bge.getByTestId('model-query-prefix')).toHaveText('“Represent this sentence for searching relevant passages: ”');
  const nomic = models.items.filter({ hasText: 'Nomic Embed v1.5' });
  await expect(nomic).toHaveAttribute('data-state', 'unavailable'); // its checksums are not pinned yet
  await nomic.getByText('details').click();
  await expect(nomic.getByTestId('model-dim')).toHaveText('768');
  await expect(nomic.getByTestId('model-document-prefix')).toHaveText('“search_document: ”');
  expect(hub.requests).toEqual([]); // listing fetches nothing
});

test('downloads from the hub with progress; a truncated file, a 404 and a dropped connection keep nothing broken', async ({ page }) => {
  const app = new AppPage(page);
  await app.goto();
  await app.waitReady();
  const models = new ModelsPage(page);
  await models.open();
  const item = models.item(copy.id);
  await expect(item).toHaveAttribute('data-state', 'downloadable');

  const kept = (...files: string[]) => files.map((f) => `/models/hub/test-org_minilm-copy/${f}`).sort();
  // files come in the catalogue's order: config.json, the weights, tokenizer.json, tokenizer_config.json
  hub.fault(WEIGHTS, 'truncate');
  await models.startDownload(copy.id);
  await expect(item.getByTestId('model-download-error')).toHaveAttribute('data-code', 'MODEL_CHECKSUM');
  expect(await keptFiles(page)).toEqual(kept('config.json'));

  hub.fault(WEIGHTS, 'drop'); // the connection goes away half-way through the weights
  await models.startDownload(copy.id);
  await expect(item.getByTestId('model-download-error')).toHaveAttribute('data-code', 'MODEL_DOWNLOAD_FAILED');
  expect(await keptFiles(page)).toEqual(kept('config.json'));

  hub.fault(WEIGHTS, undefined);
  hub.fault('tokenizer_config.json', 'missing');
  await models.startDownload(copy.id);
  await expect(item.getByTestId('model-download-error')).toHaveAttribute('data-code', 'MODEL_DOWNLOAD_FAILED');
  await expect(item.getByTestId('model-download-error')).toContainText('404');
  expect(await keptFiles(page)).toEqual(kept('config.json', WEIGHTS, 'tokenizer.json'));
  await expect(item).toHaveAttribute('data-state', 'downloadable');

  hub.fault('tokenizer_config.json', undefined);
  hub.requests.length = 0;
  await models.startDownload(copy.id);
  await models.waitDownloaded(copy.id);
  // resumed: only the file still missing was asked for
  expect(hub.requests).toEqual([`/test-org/minilm-copy/resolve/${'c'.repeat(40)}/tokenizer_config.json`]);
  // the weights' download showed its progress on the way (the largest value the page displayed)
  expect(await page.evaluate(() => (window as unknown as { __maxLoaded: number }).__maxLoaded)).toBeGreaterThan(1_000_000);
  expect(await keptFiles(page)).toHaveLength(4);
});

test('switches encoders on a store of memories with a reload in the middle; search works during and after, and offline afterwards', async ({ page, context }) => {
  test.setTimeout(600_000);
  // the services log each finished switch's speed (ms per memory re-embedded in this page)
  const speeds: string[] = [];
  page.on('console', (m) => {
    if (m.text().includes('encoder switch to')) speeds.push(m.text());
  });
  const app = new AppPage(page);
  await app.goto();
  await app.waitReady();
  const N = 120;
  const data = new DataPage(page);
  await data.open();
  const lines = Array.from({ length: N }, (_, i) => (i === 7 ? 'The mechanic replaced the timing belt on the old car' : `Everyday note ${i + 1} about ${['tomatoes', 'piano practice', 'a river walk', 'the budget meeting'][i % 4]}`));
  await data.pick([{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from(lines.join('\n')) }]);
  await data.runImport(300_000);

  // the download of the hub model first (it is switched to at the end)
  const models = new ModelsPage(page);
  await models.open();
  await models.startDownload(copy.id);
  await models.waitDownloaded(copy.id);

  // 1. MiniLM (384) -> USE-lite (512): the dimension changes
  await models.use(USE_LITE);
  await expect.poll(() => models.done(), { timeout: 120_000 }).toBeGreaterThanOrEqual(10);
  await page.reload();
  await models.waitReloaded();
  // the reload did not lose the switch: it carries on from where it stopped
  await expect(models.switchStatus).toBeVisible();
  await expect(models.switchTotal).toHaveText(String(N));
  await expect(models.active).toHaveAttribute('data-model-id', MINILM);
  // search works meanwhile, with the old vectors
  await app.page.getByTestId('nav-memories').click();
  await app.searchFor('fixing my automobile');
  await expect(app.resultWith('timing belt')).toBeVisible();
  await models.open();
  await models.waitActive(USE_LITE);
  await app.page.getByTestId('nav-memories').click();
  await app.searchFor('car repair mechanic');
  await expect(app.resultWith('timing belt')).toBeVisible();

  // 2. USE-lite -> the downloaded hub model (384 again)
  await models.open();
  await models.use(copy.id);
  await models.waitActive(copy.id);
  for (const line of speeds) console.log(line); // measured figures, for the report
  expect(speeds.length).toBeGreaterThanOrEqual(2);

  // offline afterwards: the app, the downloaded model and search all work without the network
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, undefined, { timeout: 90_000 });
  await context.setOffline(true);
  try {
    await page.reload();
    await models.waitReloaded();
    await expect(models.active).toHaveAttribute('data-model-id', copy.id);
    await app.page.getByTestId('nav-memories').click();
    await app.searchFor('fixing my automobile');
    await expect(app.resultWith('timing belt')).toBeVisible();
  } finally {
    await context.setOffline(false);
  }
});
