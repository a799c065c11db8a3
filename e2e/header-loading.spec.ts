// The header while the meaning model downloads: one row at 1280 and 1024 px (it took two at 1280,
// with "Loading the meaning model: 54%", the model's badge, a 90 px bar and "details"), and on a
// phone (390×844) one short row too (it took three). The download is held (its request never
// answered) so the page stays in that state for as long as the checks take; then the model is let
// through and loaded once, and the ready header checked at 1280 and 1024 px (it wrapped at 1024).
import { expect, test, type Locator, type Page } from '@playwright/test';
import { PHONE } from './pages/shell-page';

test.use({ serviceWorkers: 'block' }); // every model request reaches page.route, none the precache

/** The tops and bottoms of the boxes overlap: they sit on one row. */
async function oneRow(page: Page, parts: Locator[]): Promise<boolean> {
  const boxes = [];
  for (const p of parts) boxes.push((await p.boundingBox())!);
  return Math.max(...boxes.map((b) => b.y)) < Math.min(...boxes.map((b) => b.y + b.height));
}

test('while the model downloads the header keeps one row from 1600 down to 1024 px and on a phone; the figures are under details', async ({ page }) => {
  await page.route('**/all-MiniLM-L6-v2-int8/onnx/model_quantized.onnx', () => {}); // held: the download never ends
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/');
  const status = page.getByTestId('model-status');
  await expect(status).toHaveAttribute('data-phase', 'fetching-model');
  await expect(status.locator('.model-status__label')).toHaveText('Loading the model…');
  const header = page.getByRole('banner');
  const desktopParts = [page.locator('.brand'), page.getByRole('navigation', { name: 'Views' }), status, page.getByTestId('open-settings'), page.getByTestId('theme-toggle')];
  for (const width of [1600, 1440, 1380, 1280, 1240, 1200, 1100, 1024]) {
    await page.setViewportSize({ width, height: 800 });
    expect(await oneRow(page, desktopParts), `one row at ${width} px`).toBe(true);
    expect((await header.boundingBox())!.height, `header height at ${width} px`).toBeLessThan(80);
  }
  // the figures one click away, with the model's name
  await status.getByText('details').click();
  await expect(page.getByTestId('model-load-bytes')).toHaveText(/^MiniLM: /);
  await status.getByText('details').click();

  await page.setViewportSize(PHONE);
  const toggle = page.getByTestId('menu-toggle');
  expect(await oneRow(page, [page.locator('.brand'), status, toggle]), 'one row on a phone').toBe(true);
  expect((await header.boundingBox())!.height).toBeLessThanOrEqual(64);
  // the phone's words: "Loading…", which opens the figures
  await status.getByText('Loading…').click();
  await expect(page.getByTestId('model-load-bytes')).toBeVisible();

  // and once the model is ready (it took two rows at 1024 px, model or not)
  await page.unroute('**/all-MiniLM-L6-v2-int8/onnx/model_quantized.onnx');
  await page.setViewportSize({ width: 1024, height: 800 });
  await page.reload();
  await expect(status).toHaveAttribute('data-phase', 'ready', { timeout: 120_000 });
  for (const width of [1280, 1024]) {
    await page.setViewportSize({ width, height: 800 });
    expect(await oneRow(page, desktopParts), `one row at ${width} px, model ready`).toBe(true);
  }
});
