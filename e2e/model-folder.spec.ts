// The model manager's "Add a model from a folder" (issue 8) in Chromium: the folder input
// (`webkitdirectory`: the browser hands the page every file under the chosen folder with its
// relative path) given a real model folder (the bundled MiniLM files, copied under another name)
// and a folder that is not a model. One page for the whole scenario, an empty store (the switch
// to the added model has nothing to re-embed), and no wait for the default encoder: the test is
// about the folder, not about meaning.
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { AppPage } from './pages/app-page';
import { ModelsPage } from './pages/models-page';

const BUNDLED = join(process.cwd(), 'public/models/all-MiniLM-L6-v2-int8');
let root: string;

test.beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'mnemograph-folder-'));
  // a model folder as the hub lays it out, plus a file the app does not need
  const good = join(root, 'my-minilm');
  mkdirSync(join(good, 'onnx'), { recursive: true });
  for (const f of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx']) copyFileSync(join(BUNDLED, f), join(good, f));
  writeFileSync(join(good, 'notes.txt'), 'not part of the model');
  // a folder with a config but neither tokenizer nor weights
  const bad = join(root, 'holiday-photos');
  mkdirSync(bad);
  copyFileSync(join(BUNDLED, 'config.json'), join(bad, 'config.json'));
  writeFileSync(join(bad, 'beach.txt'), 'sand');
});
test.afterAll(() => rmSync(root, { recursive: true, force: true }));

test('adds a model from a picked folder, refuses a folder that is not one saying what is missing, and runs the added model', async ({ page }) => {
  test.setTimeout(240_000); // the added model's load in its own worker, beside the default's, on a shared machine
  const app = new AppPage(page);
  await app.goto();
  await app.waitKeywordsReady();
  const models = new ModelsPage(page);
  await models.open();
  const before = await models.items.count();

  // not a model: a plain message naming what is missing, nothing added
  await models.folderInput.setInputFiles(join(root, 'holiday-photos'));
  const error = page.getByTestId('model-folder-error');
  await expect(error).toHaveAttribute('data-code', 'MODEL_FOLDER_INVALID');
  await expect(error).toContainText('tokenizer.json is missing');
  await expect(error).toContainText('Nothing was added');
  await expect(models.items).toHaveCount(before);

  // a real model folder: read, checksummed, kept on this device and listed as ready to use
  await models.folderInput.setInputFiles(join(root, 'my-minilm'));
  await expect(page.getByTestId('model-folder-added')).toHaveText('Added “my-minilm”. You can use it now.', { timeout: 60_000 });
  await expect(error).toHaveCount(0);
  await expect(models.items).toHaveCount(before + 1);
  const added = page.locator('[data-testid="model-item"][data-model-id^="folder:"]');
  await expect(added).toHaveAttribute('data-state', 'available');
  await expect(added).toContainText('my-minilm');
  await expect(added).toContainText('384');
  const id = (await added.getAttribute('data-model-id'))!;
  expect(id).toMatch(/^folder:[0-9a-f]{12}\/q8$/);
  const kept = await page.evaluate(async () => (await (await caches.open('mnemograph-models-v1')).keys()).map((r) => new URL(r.url).pathname).sort());
  // only the files a model needs, each under the model's own folder (notes.txt was not read)
  expect(kept.map((p) => p.replace(/^.*\/local\/[^/]+\//, ''))).toEqual(['config.json', 'onnx/model_quantized.onnx', 'tokenizer.json', 'tokenizer_config.json']);

  // it runs: switching to it (an empty store: nothing to re-embed) loads it from the kept files
  await models.use(id);
  await models.waitActive(id, 180_000);
  await expect(models.item(id)).toHaveAttribute('data-state', 'active');
});
