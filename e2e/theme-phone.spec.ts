// Two things a person meets (without reduced motion, which hides the first): switching to dark in
// Settings turns every button and field dark at once, including those folded away under Advanced;
// on a phone (390×844) a search result's text keeps the row's width instead of one word per line.
// One page; the sample collection (its stored vectors) gives the results.
import { expect, test, type Locator } from '@playwright/test';
import { AppPage } from './pages/app-page';
import { ShellPage, PHONE } from './pages/shell-page';

const background = (l: Locator) => l.evaluate((el) => getComputedStyle(el).backgroundColor);

test('a theme switch reaches every button and field at once; a result reads on a phone', async ({ page }) => {
  test.setTimeout(240_000); // the sample's load on a shared machine
  const app = new AppPage(page);
  const shell = new ShellPage(page);
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
  await app.goto();
  await app.waitKeywordsReady();

  await shell.openSettings();
  const s = shell.settings;
  const field = s.getByTestId('settings-high-E1'); // inside Advanced, folded: the browser skips its style until opened
  const button = s.getByTestId('settings-reset');
  const lightField = await background(field);
  await s.getByTestId('settings-theme-dark').check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await s.getByTestId('settings-advanced').locator('> summary').click();
  // read once, at once: no fade from the light palette (app.css's dark --surface-2 / --surface)
  expect(await background(field)).not.toBe(lightField);
  expect(await background(field)).toBe('rgb(28, 35, 56)'); // --surface-2, dark (a field)
  expect(await background(button)).toBe('rgb(21, 27, 44)'); // --surface, dark (the panels' button)
  await s.getByTestId('settings-theme-system').check();
  await shell.closeSettings();

  // a phone: the result's text spans the card, how well it matches and Open sit under it
  await page.getByTestId('sample-loader').first().getByTestId('sample-load').click();
  await expect(app.memoryCount).toHaveText('323', { timeout: 200_000 });
  await shell.resize('phone');
  await app.searchFor('sourdough starter');
  const first = page.getByTestId('search-result').first();
  await expect(first).toBeVisible({ timeout: 60_000 });
  const text = (await first.locator('.result__text').boundingBox())!;
  const card = (await first.boundingBox())!;
  expect(PHONE.width).toBe(390);
  expect(text.width).toBeGreaterThan(card.width * 0.75); // was ~55 px: one word per line
  const open = (await first.getByTestId('result-open').boundingBox())!;
  expect(open.y).toBeGreaterThanOrEqual(text.y + text.height - 1); // under the text, not beside it
  await page.screenshot({ path: 'e2e/screenshots/polish-result-phone-light.png' });
});
