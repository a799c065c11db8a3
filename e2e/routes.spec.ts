// Addresses (issue 12, point 13): each view, recall and opened memory has a URL in the hash;
// Back and Forward retrace the person's steps; a reloaded recall address shows the same results;
// a memory's address opens its panel.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { RoutesPage } from './pages/routes-page';

test.describe.configure({ mode: 'serial' });

let context: BrowserContext;
let page: Page;
let at: RoutesPage;

const QUERY = 'sourdough starter feeding';

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext(); // one context: a second page shares its database
  page = await context.newPage();
  at = new RoutesPage(page);
  await at.visit('');
  await at.app.waitReady();
  // A small collection of its own, so the spec does not depend on the sample's 60 s load.
  await at.app.addAndWait('Fed the sourdough starter with rye flour; it doubled in six hours.', { tags: 'bread, sourdough' });
  await at.app.addAndWait('Sourdough loaf came out dense: the starter was not active enough.', { tags: 'bread' });
  await at.app.addAndWait('Booked the train to Lyon for the conference in May.', { tags: 'travel' });
});

test.afterAll(async () => {
  await context.close();
});

test('switching views changes the address, Back returns and Forward goes again', async () => {
  await at.tab('graph');
  await at.expectHash(/^#\/explore$/);
  await at.tab('data');
  await at.expectHash(/^#\/data$/);
  await page.goBack();
  await at.expectView('graph');
  await at.expectHash(/^#\/explore$/);
  await page.goForward();
  await at.expectView('data');
  await at.tab('memories');
  await at.expectHash(/^#\/memories$/);
  await page.goBack();
  await at.expectView('data');
});

test('a recall has an address; reloaded, it shows the same query and results', async () => {
  await at.tab('graph');
  await at.explore.recall(QUERY);
  await at.expectHash(/^#\/explore\?q=sourdough%20starter%20feeding$/);
  const first = await at.explore.results.allTextContents();
  expect(first.length).toBeGreaterThan(0);

  await page.reload();
  await expect(at.app.modelStatus).toHaveAttribute('data-phase', 'ready', { timeout: 90_000 });
  await at.expectView('graph');
  await expect(at.explore.query).toHaveValue(QUERY);
  await at.expectRecallOf(QUERY);
  await expect.poll(() => at.explore.results.allTextContents()).toEqual(first);
});

test('the profile is part of the address', async () => {
  await at.explore.setProfile('CRITICAL');
  await at.explore.recallButton.click();
  await at.expectHash(/[?&]profile=CRITICAL(&|$)/);
  // The options drawer stays open after a recall, so profiles can be compared (point 8).
  await expect(at.explore.options).toHaveAttribute('open', '');
  await at.explore.setProfile('BALANCED');
  await at.explore.recallButton.click();
  await at.expectHash(/[?&]profile=BALANCED(&|$)/);
  await page.goBack();
  await at.expectHash(/[?&]profile=CRITICAL(&|$)/);
  await expect(page.getByTestId('explore-profile')).toHaveText('CRITICAL');
});

test('opening a memory adds it to the address; Back closes it, Forward opens it again', async () => {
  await at.explore.results.first().click();
  await expect(at.explore.memoryPanel).toBeVisible();
  await at.expectHash(/[?&]m=[^&]+$/);
  await page.goBack();
  await expect(at.explore.memoryPanel).toBeHidden();
  await expect.poll(() => at.hash()).not.toMatch(/[?&]m=/);
  await page.goForward();
  await expect(at.explore.memoryPanel).toBeVisible();
});

test('a link to a memory opens its panel, from another view and in a fresh page', async () => {
  const link = at.hash();
  const text = await at.explore.memoryPanel.getByTestId('memory-text').textContent();
  await at.explore.memoryPanel.getByTestId('memory-close').click();
  await expect(at.explore.memoryPanel).toBeHidden();
  await at.tab('memories');

  // A link in the page (as a note would hold it) is followed through hashchange.
  await page.evaluate((href) => {
    const a = document.createElement('a');
    a.href = href;
    a.textContent = 'memory link';
    document.body.append(a);
    a.click();
    a.remove();
  }, link);
  await at.expectView('graph');
  await expect(at.explore.memoryPanel).toBeVisible();
  await expect(at.explore.memoryPanel.getByTestId('memory-text')).toHaveText(text ?? '');

  // Only the memory's id, in a fresh page: read from the database, no recall needed.
  const id = /[?&]m=([^&]+)/.exec(link)![1]!;
  const fresh = await context.newPage();
  const other = new RoutesPage(fresh);
  await other.visit(`#/explore?m=${id}`);
  await expect(other.explore.memoryPanel).toBeVisible();
  await expect(other.explore.memoryPanel.getByTestId('memory-text')).toHaveText(text ?? '');
  await fresh.close();
});

test('bad addresses fall back calmly', async () => {
  await at.visit('#/nowhere?q=%E0%A4%A');
  await at.expectView('memories');
  await at.visit('#/explore?q=%E0%A4%A&profile=TURBO');
  await page.reload(); // a fresh load: nothing left from the earlier recalls
  await expect(at.app.modelStatus).toHaveAttribute('data-phase', 'ready', { timeout: 90_000 });
  await at.expectView('graph');
  await expect(at.explore.query).toHaveValue('');
  await expect(page.getByTestId('explore-profile')).toHaveText('BALANCED');
  await expect(at.explore.results).toHaveCount(0);
});
