// The spaces end to end: a result made relevant by a non-semantic space (E7, code) with its
// explanation panel, and divergence alerts after a topic switch but not after a temporal-only
// difference. Small hand-made collections (captured through the UI), no sample load.
import { expect, test } from '@playwright/test';
import { AppPage } from './pages/app-page';
import { ExplorePage } from './pages/explore-page';

const CODE_MEMORY =
  'Helper from the billing service:\n```ts\nexport const sumActive = (items: Item[]) => items.filter((it) => it.active).reduce((total, it) => total + it.price, 0);\n```';
// Same shape, other names: the sentence encoder finds it only moderately similar (E1 below its
// 0.75 threshold) while the code space (E7) sees the shared structure.
const CODE_QUERY = 'rows.filter((r) => r.open).reduce((n, r) => n + r.qty, 0)';

test('a code memory made relevant by the code space alone, explained space by space', async ({ page }) => {
  const app = new AppPage(page);
  const explore = new ExplorePage(page);
  await app.goto();
  await app.waitReady();
  await app.addAndWait(CODE_MEMORY, { tags: 'billing' });
  await app.addAndWait('Walked the dog by the river at sunset; the water was calm', { tags: 'dog' });
  await app.addAndWait('Sam is working nights this week, so dinner at five', { tags: 'sam' });
  await page.getByTestId('nav-graph').click();
  await expect(explore.query).toBeVisible();

  // The query shares no word with the memory (no BM25 match, E1 below its threshold): only the code
  // space sees the shared structure. E7's sparse cosine over structural code features gives this
  // pair 0.52: the same chain of calls, but every identifier and member renamed; the seed's 0.8
  // asks for a near-copy (renamed local variables only). Lower it in Settings, which also checks
  // that thresholds can be viewed and changed.
  await page.getByTestId('explore-settings').click();
  const dialog = explore.settingsDialog;
  await expect(dialog.getByTestId('settings-high-E7')).toHaveValue('0.8');
  await dialog.getByTestId('settings-high-E7').fill('0.1');
  await dialog.getByTestId('settings-save').click();
  await expect(dialog.getByTestId('settings-notice')).toBeVisible();
  await dialog.getByTestId('settings-close').click();

  await explore.recall(CODE_QUERY);
  const hit = explore.results.filter({ hasText: 'Helper from the billing service' });
  await expect(hit).toBeVisible();
  await expect(hit).toContainText('similar code'); // E7, named in plain words (the id is behind details)
  await hit.click();
  const panel = explore.memoryPanel;
  await expect(panel.getByTestId('space-explanation')).toBeVisible();
  await expect(explore.spaceRow('E7')).toHaveAttribute('data-relevant', 'true');
  await expect(explore.spaceRow('E1')).toHaveAttribute('data-relevant', 'false');
  await expect(panel.getByTestId('space-high-E7')).toContainText('0.10');
  expect(Number(await panel.getByTestId('space-contribution-E7').textContent())).toBeGreaterThan(0);
  for (const t of ['E2', 'E3', 'E4']) await expect(explore.spaceRow(t)).toHaveAttribute('data-state', 'excluded');
  await expect(explore.spaceRow('E10')).toHaveAttribute('data-state', 'absent'); // no media
  await expect(panel.getByTestId('relevance-tier')).not.toHaveText(/not relevant/);
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
});

test('divergence: none for a temporal-only difference, an alert after a topic switch, dismissable, leading to the recent work', async ({ page }) => {
  const app = new AppPage(page);
  const explore = new ExplorePage(page);
  const STARTER = 'Fed the sourdough starter with rye flour and water; it smells yeasty and bubbly.';
  await app.goto();
  await app.waitReady();
  await app.addAndWait(STARTER, { tags: 'sourdough' });
  // The same thing captured again later (in other words: identical text is refused as already
  // saved): the content spaces stay close, the temporal ones differ, and those never alert.
  await app.addAndWait(`Later: ${STARTER.replace('Fed', 'fed')}`, { tags: 'sourdough' });
  await page.getByTestId('nav-graph').click();
  await expect(explore.query).toBeVisible();
  await expect(explore.lateralStatus).toBeVisible(); // the view is settled
  await expect(explore.divergence).toHaveCount(0);

  // A topic switch: a capture far from the recent work.
  await page.getByTestId('nav-memories').click();
  await app.addAndWait('Postgres EXPLAIN shows a sequential scan on the orders table; it needs a composite index.', { tags: 'postgres' });
  await page.getByTestId('nav-graph').click();
  await expect(explore.divergence).toBeVisible();
  await expect(explore.divergence.getByTestId('divergence-title')).toHaveText(/^This memory is far from what you worked on in the last two hours: sourdough/);
  // the per-space figures are one click away, behind Details
  await explore.divergence.getByText('Details', { exact: true }).click();
  await expect(explore.divergence.getByTestId('divergence-E1')).toBeVisible();
  const sim = Number(await explore.divergence.getByTestId('divergence-sim-E1').textContent());
  const threshold = Number(await explore.divergence.getByTestId('divergence-threshold-E1').textContent());
  expect(sim).toBeLessThan(threshold);
  await expect(explore.divergence).not.toContainText(/TempRecent|TempPeriodic|TempPosition|E2|E3|E4/);
  // It leads back to the recent memories: a badge in the graph and the "Show recent work" list.
  await expect(page.locator('[data-testid^="graph-node-a:"]').first()).toBeAttached();
  await expect(explore.nodesOfKind('recent').first()).toBeAttached();
  await page.screenshot({ path: 'e2e/screenshots/explore-divergence.png' });
  await explore.divergence.getByTestId('divergence-show-recent').click();
  const recent = page.getByTestId('explore-recent');
  await expect(recent).toBeFocused();
  await expect(recent.getByTestId('explore-recent-item').filter({ hasText: 'sourdough starter' }).first()).toBeVisible();
  await recent.getByTestId('explore-recent-item').first().click();
  await expect(explore.memoryPanel.getByTestId('memory-text')).toContainText('sourdough starter');
  await page.keyboard.press('Escape');

  await explore.divergence.getByTestId('divergence-dismiss').click();
  await expect(explore.divergence).toHaveCount(0);
});
