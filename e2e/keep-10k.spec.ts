// The full list at 10k memories (issue 9, Browse): it counts them all, scrolls to the end with
// only a screenful of rows in the page, filters by a tag chip and by importance, and opens a
// memory from the filtered list. The 10k rows are written straight into the app's database as
// copies of one captured memory (its row and vector rows), so nothing is re-embedded.
import { expect, test } from '@playwright/test';
import { KeepPage } from './pages/keep-page';

const N = 10_000;

test('10k memories: the list scrolls to the end, filters and opens a memory', async ({ page }) => {
  test.setTimeout(300_000);
  const keep = new KeepPage(page);
  await keep.app.goto();
  await keep.app.waitReady();
  await keep.app.addAndWait('Template memory: planted tulip bulbs along the fence.', { tags: 'garden' });
  const seedStart = Date.now();
  await keep.seedCopies(await keep.idOf('Template memory'), N);
  const seedMs = Date.now() - seedStart;
  await page.reload();
  await keep.app.waitReady();
  await expect(keep.count).toHaveText((N + 1).toLocaleString('en'), { timeout: 60_000 });

  // only a window of rows is in the page, whatever the length
  const rendered = await keep.rows.count();
  expect(rendered).toBeGreaterThan(3);
  expect(rendered).toBeLessThan(60);

  // scroll to the end: the oldest seeded memory (number 1) comes into view, still a window of rows
  const scrollStart = Date.now();
  await keep.list.evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(keep.rows.filter({ hasText: /^Seeded note 1: / })).toBeVisible();
  const scrollMs = Date.now() - scrollStart;
  expect(await keep.rows.count()).toBeLessThan(60);
  await expect(keep.list.locator(`[aria-posinset="${N + 1}"]`)).toBeVisible();

  // frame times while the whole list passes by in 120 frames (figures only: timing is not asserted)
  const frames = await keep.list.evaluate(async (el) => {
    el.scrollTop = 0;
    const times: number[] = [];
    let last = performance.now();
    for (let i = 1; i <= 120; i++) {
      el.scrollTop = (el.scrollHeight * i) / 120;
      await new Promise((r) => requestAnimationFrame(r));
      const now = performance.now();
      times.push(now - last);
      last = now;
    }
    times.sort((a, b) => a - b);
    return { median: times[59]!, p95: times[113]!, max: times[119]! };
  });
  await expect(keep.list.locator('[data-testid="memory-item"]:not([data-memory-id])')).toHaveCount(0); // every row on screen filled in

  // a tag chip shows its count and filters by it: 10k / 5 tags = 2,000 each (+1: the template)
  const chip = page.getByTestId('tag-chip').filter({ hasText: '#garden' });
  await expect(chip).toContainText('2,001');
  const filterStart = Date.now();
  await chip.click();
  await expect(keep.count).toHaveText('2,001');
  const filterMs = Date.now() - filterStart;
  await expect(chip).toHaveAttribute('aria-pressed', 'true');

  // and by importance (the copies' importance cycles 0, .25, .5, .75, 1; garden ones are i % 5 = 0: 0)
  await page.getByTestId('browse-filters-toggle').click();
  await page.getByTestId('browse-importance').selectOption('0.5');
  await expect(keep.count).toHaveText('1'); // only the template (0.5) is garden and at least 0.5
  await page.getByTestId('browse-importance').selectOption('');
  await expect(keep.count).toHaveText('2,001');

  // sorted oldest first, the first row is the first seeded garden note; it opens in full
  await page.getByTestId('browse-sort').selectOption('oldest');
  await expect(keep.rows.first()).toContainText('Seeded note 1: garden');
  await keep.rows.first().getByTestId('memory-row-open').click();
  await expect(keep.dialogText).toHaveText('Seeded note 1: garden plans for week 0');
  await expect(page).toHaveURL(/#\/memories\?m=/);
  await keep.close();

  console.log(`[keep-10k] seed ${N} rows ${seedMs} ms; scroll to end ${scrollMs} ms; tag filter ${filterMs} ms (rows in page: ${rendered}); frames while scrolling the whole list: median ${frames.median.toFixed(1)} ms, p95 ${frames.p95.toFixed(1)} ms, max ${frames.max.toFixed(1)} ms`);
});
