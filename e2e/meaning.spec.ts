// The app on its default encoder, MiniLM (issue 8): the badge names it, search by meaning puts the
// right memory first where USE-lite did not, and after the first load it all works offline (the
// model and onnxruntime-web's WASM are in the service worker's precache).
import { expect, test } from '@playwright/test';
import { AppPage } from './pages/app-page';

const MECHANIC = 'the mechanic replaced the timing belt';
const BIKE = 'the neighbour fixed my bike chain';

test('runs MiniLM, finds "fixing my automobile" by meaning, and does so again offline', async ({ page, context }) => {
  test.setTimeout(300_000); // two model loads and the 90 MB precache
  const app = new AppPage(page);
  await app.goto();
  await app.waitReady();
  await expect(app.encoderBadge()).toHaveText('MiniLM');
  await expect(app.encoderBadge()).toHaveAttribute('data-encoder', 'all-MiniLM-L6-v2-int8');
  await expect(app.encoderBadge()).toHaveAttribute('title', /all-MiniLM-L6-v2 \(int8\): 384 numbers per memory, Apache-2\.0 licence/);
  await expect(page.getByTestId('model-note')).toHaveCount(0); // not the fallback

  await app.addAndWait(BIKE);
  await app.addAndWait(MECHANIC);
  await app.searchFor('fixing my automobile');
  // By meaning the mechanic is the closer (cosines 0.336 and 0.317; USE-lite had it the other way
  // round), so all of the meaning part of the score goes to it and none of the words part (no
  // shared word). The bike chain shares "fixing" / "fixed": with today's fixed 0.5 / 0.5 fusion the
  // two tie, and which comes first is the query-adaptive fusion's call (issue 8, the fusion work).
  const mechanic = app.resultWith(MECHANIC);
  const bike = app.resultWith(BIKE);
  await expect(mechanic.getByTestId('result-semantic')).toHaveText('0.500');
  await expect(mechanic.getByTestId('result-lexical')).toHaveText('0.000');
  await expect(bike.getByTestId('result-semantic')).toHaveText('0.000');
  // with no shared word, meaning alone decides: the mechanic first (cosines 0.286 and 0.209)
  await app.searchFor('repairing a car');
  await expect(app.results.first()).toContainText(MECHANIC);

  await app.waitOfflineReady();
  await context.setOffline(true);
  try {
    await page.reload();
    await app.waitReady();
    await expect(app.encoderBadge()).toHaveText('MiniLM');
    await app.searchFor('my car was serviced');
    await expect(app.results.first()).toContainText(MECHANIC);
  } finally {
    await context.setOffline(false);
  }
});
