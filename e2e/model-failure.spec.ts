// A meaning model that cannot load says why in plain words, and search goes on by keywords
// (issue 12, point 11). The model files are routed to fail (no clocks): MiniLM's weights cannot be
// fetched, so the worker turns to USE-lite, whose model.json cannot be either; the status then says
// what happened, the worker's own text is one click away, and a keyword search still finds the memory.
import { expect, test } from '@playwright/test';
import { AppPage } from './pages/app-page';

// routes see the embed worker's requests only without a service worker answering from its cache
test.use({ serviceWorkers: 'block' });

test('a model that cannot load says why, and keyword search still finds memories', async ({ page, context }) => {
  test.setTimeout(240_000); // one model load and a save, then a failing load, on a busy machine
  const app = new AppPage(page);
  await app.goto();
  await app.waitReady();
  const text = `A quokka smiled at me on the ferry to Rottnest ${Date.now()}`;
  await app.addAndWait(text);

  // (fulfilling a dedicated worker's request hung in Chromium; failing it does not)
  await context.route('**/models/all-MiniLM-L6-v2-int8/onnx/**', (r) => r.abort('failed'));
  await context.route('**/models/use-lite/model.json', (r) => r.abort('failed'));
  await page.reload();

  await expect(app.modelStatus).toHaveAttribute('data-phase', 'error');
  // short words in the header's row (one row at 1280 px), the sentence and the worker's text under Details
  await expect(app.modelStatus.locator('.model-status__label')).toHaveText("Couldn't load the model");
  expect((await page.getByRole('banner').boundingBox())!.height).toBeLessThan(80);
  await app.modelStatus.getByText('Details').click();
  await expect(page.getByTestId('model-error-words')).toContainText(
    "The meaning model couldn't be loaded: its files could not be fetched (the connection failed). Search works by keywords; reload to try again.",
  );
  await expect(page.getByTestId('model-error-detail')).toContainText('model.json');

  await app.searchFor('quokka');
  await expect(app.resultWith(text)).toHaveCount(1);
  await expect(page.getByTestId('search-keywords-only')).toHaveText('The meaning model is not available: matching by words only.');
});
