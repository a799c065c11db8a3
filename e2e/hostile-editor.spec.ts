// Hostile content typed into the editor (the capture form: text, tags, source) is stored and shown
// as text: in the memory list, in search results, in the Explore results and the memory panel.
// Nothing from it runs: no dialog opens, no element is made from it, no unsafe link is clickable.
import { expect, test } from '@playwright/test';
import { AppPage } from './pages/app-page';
import { ExplorePage } from './pages/explore-page';
import { expectInert, watchForScripts } from './fixtures/hostile-watch';

const HOSTILE = [
  `<script>alert('text')</script> pancake recipe`,
  `<img src=x onerror="alert('img')"> pancake notes`,
  `<svg onload="alert('svg')"><circle r="5"/></svg> pancake sketch`,
  `[click me](javascript:alert('md')) pancake link <iframe src="javascript:alert('frame')"></iframe>`,
];

test('hostile text, tags and sources typed into the editor stay inert text everywhere they are shown', async ({ page }) => {
  test.setTimeout(240_000);
  const watch = await watchForScripts(page);
  const app = new AppPage(page);
  await app.goto();
  await app.waitReady();
  for (const [i, text] of HOSTILE.entries()) {
    await app.text.fill(text);
    await app.tags.fill(`<b>bold</b>, "onmouseover=alert(${i})"`);
    await app.source.fill(i % 2 ? `javascript:alert('source${i}')` : `data:text/html,<script>alert(${i})</script>`);
    const before = await app.count();
    await app.save.click();
    await expect(app.memoryCount).toHaveText(String(before + 1), { timeout: 60_000 });
  }

  const list = page.getByTestId('memory-list');
  await expect(list).toContainText(`<script>alert('text')</script>`);
  await expect(list).toContainText(`<svg onload="alert('svg')">`);
  await app.searchFor('pancake');
  await expect(app.results.first()).toBeVisible();

  const explore = new ExplorePage(page);
  await page.getByTestId('nav-graph').click();
  await explore.recall('pancake');
  await explore.results.first().click();
  await expect(explore.memoryPanel).toContainText('pancake');

  for (const region of [list, page.getByTestId('search-results'), explore.memoryPanel]) {
    if ((await region.count()) > 0) await expectInert(region);
  }
  await watch.expectNothingRan();
});
