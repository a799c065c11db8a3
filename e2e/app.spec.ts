import { expect, test } from '@playwright/test';
import { AppPage } from './pages/app-page';

const CAR = 'Took the car to the garage to repair the engine';

test.describe('main screen', () => {
  test('adds a memory and finds it by meaning, with score and semantic contribution', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto();
    await app.waitReady();
    await app.addAndWait('Bought flour, eggs and butter to bake a birthday cake');
    await app.addAndWait(CAR, { tags: 'Car, errands ,car' });
    await expect(app.memoryItems.first()).toContainText(CAR); // newest first
    await expect(app.memoryItems.first()).toContainText('#car');

    await app.searchFor('fixing my automobile');
    const hit = app.resultWith(CAR);
    await expect(hit).toBeVisible();
    await expect(app.results.first()).toContainText(CAR); // ranked first
    const score = Number(await hit.getByTestId('result-score').textContent());
    const semantic = Number(await hit.getByTestId('result-semantic').textContent());
    expect(score).toBeGreaterThan(0);
    expect(semantic).toBeGreaterThan(0);
  });

  test('memories persist across a reload', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto();
    await app.waitReady();
    const text = `Persistent note ${Date.now()}`;
    await app.addAndWait(text);
    const n = await app.count();
    await page.reload();
    await app.waitKeywordsReady(); // the list is read from the database: no need to wait for the model again
    await expect(app.memoryCount).toHaveText(String(n));
    await expect(app.memoryItems.filter({ hasText: text })).toHaveCount(1);
  });

  test('shows the capture chips and the Ctrl+Enter shortcut saves', async ({ page }) => {
    const app = new AppPage(page);
    await app.goto();
    await app.waitReady();
    await app.tags.fill(' Road Trip, road trip,  ');
    await expect(page.getByTestId('capture-chips').getByRole('listitem')).toHaveText(['#road-trip']);
    const before = await app.count();
    await app.text.fill('Planned the road trip along the coast');
    await app.text.press('Control+Enter');
    await expect(app.memoryCount).toHaveText(String(before + 1), { timeout: 60_000 });
  });

  test('keyboard only: tab through the form, save, and switch the theme', async ({ page }) => {
    const app = new AppPage(page);
    await page.emulateMedia({ colorScheme: 'light' });
    await app.goto();
    await app.waitReady();
    await app.text.focus();
    await page.keyboard.type('Booked a table for two at the harbour restaurant');
    await page.keyboard.press('Tab');
    await expect(app.tags).toBeFocused();
    await page.keyboard.type('dinner');
    await page.keyboard.press('Tab');
    await expect(app.source).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByTestId('capture-happened')).toBeFocused(); // "when did this happen": its day, month and year are stops of their own
    const rule = page.getByRole('checkbox', { name: 'A rule to keep in mind' });
    for (let i = 0; i < 4 && !(await rule.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
    await expect(rule).toBeFocused(); // the date's day, month and year, then "A rule to keep in mind"
    await page.keyboard.press('Tab');
    const importance = page.getByTestId('capture-importance');
    await expect(importance).toBeFocused();
    await page.keyboard.press('ArrowRight'); // 0.5 -> 0.55
    await expect(page.getByTestId('capture-importance-value')).toHaveText('0.55');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Attach a picture' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(app.save).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(app.memoryCount).toHaveText('1', { timeout: 60_000 });
    await expect(app.memoryItems.first()).toContainText('★ 0.55');

    const toggle = page.getByTestId('theme-toggle');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await toggle.focus();
    await page.keyboard.press('Enter'); // system -> light
    await page.keyboard.press('Enter'); // light -> dark
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark'); // the choice is remembered
  });

  test('screenshots of the main screen in light and dark', async ({ page }) => {
    const app = new AppPage(page);
    await page.setViewportSize({ width: 1280, height: 900 });
    await app.goto();
    await app.waitReady();
    if ((await app.count()) < 2) {
      await app.addAndWait(CAR, { tags: 'car, errands' });
      await app.addAndWait('Walked the dog by the river at sunset; the water was calm', { tags: 'dog' });
    }
    await app.searchFor('fixing my automobile');
    await expect(app.results.first()).toBeVisible();
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await page.screenshot({ path: 'e2e/screenshots/main-light.png', fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.screenshot({ path: 'e2e/screenshots/main-dark.png', fullPage: true });
  });
});
