// Screenshots for looking at the UI (not part of the suite: deleted after use).
import { expect, test, type Page } from '@playwright/test';
import { KeepPage } from './pages/keep-page';

const OUT = '/tmp/shots-keepui';

async function fill(page: Page) {
  const keep = new KeepPage(page);
  await keep.app.goto();
  await keep.app.waitReady();
  await keep.app.text.fill('# Sourdough notes\n\nFed the **starter** with rye; it doubled in *six hours*.\n\n- [x] 100 g rye\n- [ ] 100 g water\n\n```python\nratio = flour / water  # 1:1\n```\n\nSee [the guide](https://example.org/bread) and [bad](javascript:alert(1)).');
  await keep.app.tags.fill('bread, sourdough');
  await keep.app.source.fill('https://example.org/bread');
  await keep.app.save.click();
  await expect(keep.count).toHaveText('1', { timeout: 60_000 });
  await keep.app.addAndWait('The team meeting is on Tuesdays at ten in the blue room.', { tags: 'work, meetings' });
  await keep.app.addAndWait('Planted tulip bulbs along the fence before the frost.', { tags: 'garden' });
  return keep;
}

for (const [name, scheme, size] of [
  ['light', 'light', { width: 1280, height: 900 }],
  ['dark', 'dark', { width: 1280, height: 900 }],
  ['phone', 'light', { width: 390, height: 844 }],
] as const) {
  test(`shots ${name}`, async ({ page }) => {
    test.setTimeout(240_000);
    await page.setViewportSize(size);
    await page.emulateMedia({ colorScheme: scheme });
    const keep = await fill(page);
    if (name === 'dark') {
      await page.getByTestId('theme-toggle').click();
      await page.getByTestId('theme-toggle').click();
      await page.getByTestId('theme-toggle').click();
    }
    await keep.select('tulip');
    await keep.list.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${OUT}/${name}-list.png`, fullPage: true });
    await keep.open('Sourdough notes');
    await page.screenshot({ path: `${OUT}/${name}-open.png` });
    await keep.dialog.getByTestId('memory-history-toggle').click();
    await keep.dialog.getByTestId('memory-edit').click();
    await page.screenshot({ path: `${OUT}/${name}-edit.png` });
    await page.keyboard.press('Escape');
    await keep.open('tulip');
    await keep.dialog.getByTestId('memory-mark-unsure').click();
    await keep.close();
    await keep.show('review');
    await page.screenshot({ path: `${OUT}/${name}-review.png` });
    await keep.show('memories');
    await keep.open('team meeting');
    await keep.dialog.getByTestId('memory-delete').click();
    await keep.show('trash');
    await page.screenshot({ path: `${OUT}/${name}-trash.png` });
    await page.getByTestId('nav-graph').click();
    await page.getByTestId('explore-options-toggle').click();
    await page.getByTestId('recall-as-of').fill('2025-06-01');
    await page.getByTestId('time-options').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${OUT}/${name}-asof.png` });
  });
}
