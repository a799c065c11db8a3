// The Explore view end to end on the real encoder: load the sample once (serial, one shared page),
// a DIVERGENT recall with lateral nodes and a three-hop chain, keyboard opening, feedback and the
// lateral status, light / dark screenshots.
import { expect, test, type Page } from '@playwright/test';
import { ExplorePage } from './pages/explore-page';

// From src/sample/README.md: "why didn't my bread rise" is the `debugging` lateral pair (flaky
// tests come back as lateral hits once the query carries the tag) and runs into the sourdough
// chains (the cold kitchen -> oven light -> it rose).
const QUERY = "why didn't my bread rise";
const QUERY_TAGS = 'debugging';

test.describe.configure({ mode: 'serial' });

let page: Page;
let explore: ExplorePage;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(600_000);
  page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  explore = new ExplorePage(page);
  await explore.open();
  await expect(explore.sampleLoader).toBeVisible();
  const n = await explore.loadSample();
  expect(n).toBeGreaterThan(250);
});

test.afterAll(async () => {
  await page?.close();
});

test('a DIVERGENT recall shows lateral nodes and a three-hop associative chain', async () => {
  await explore.setProfile('DIVERGENT', 3);
  // The associative step's minimum cosine (0.72) was set on USE-lite's cosine scale. MiniLM's is
  // lower: on the sample's 52,003 memory pairs, the share of pairs above 0.72 on USE-lite (0.37%)
  // is above 0.59 on MiniLM. Until the thresholds are calibrated per encoder (issue 8), the chain is
  // asked for at the MiniLM equivalent.
  await explore.setOption('minCosine', '0.59');
  await explore.recall(QUERY, QUERY_TAGS);
  await expect(explore.nodesOfKind('lateral').first()).toBeAttached();
  expect(await explore.nodesOfKind('lateral').count()).toBeGreaterThanOrEqual(1);
  // query -> m1 -> m2 -> m3: an associative node three hops out, and one at each hop before it.
  // With assocHops 3 a walk can go one further (direct hit + 3 hops): the default depth (4) shows
  // its end, and depth 3 hides it again.
  await expect(explore.nodesAtHop(3, 'associative').first()).toBeAttached();
  await expect(explore.nodesAtHop(4, 'associative').first()).toBeAttached();
  const deepest = await explore.nodesAtHop(4, 'associative').count();
  await page.getByTestId('explore-depth').selectOption('3');
  await expect(explore.nodesAtHop(4)).toHaveCount(0);
  await expect(explore.nodesAtHop(3, 'associative').first()).toBeAttached();
  await page.getByTestId('explore-depth').selectOption('4');
  await expect(explore.nodesAtHop(4, 'associative')).toHaveCount(deepest);
  // Filters by kind: only lateral hits (and the query) remain.
  await page.getByTestId('explore-kind-filter').selectOption('lateral');
  await expect(explore.nodesOfKind('standard')).toHaveCount(0);
  await expect(explore.nodesOfKind('lateral').first()).toBeAttached();
  await page.getByTestId('explore-kind-filter').selectOption('all');
  await expect(explore.nodesAtHop(2, 'associative').first()).toBeAttached();
  await expect(explore.nodesAtHop(1).first()).toBeAttached();
  // The list beside the graph carries the same modes, with hop numbers on associative rows.
  await expect(page.locator('[data-testid="explore-result"][data-mode="lateral"]').first()).toContainText('lateral');
  await expect(page.locator('[data-testid="explore-result"][data-mode="associative"]').first()).toContainText(/associative · hop \d/);
});

test('opens a lateral node by keyboard, reinforces and suppresses it, and the lateral metrics move', async () => {
  // The recall above returned lateral results: the evaluator counted them.
  await expect.poll(() => explore.metric('samples')).toBeGreaterThan(0);
  const lur = await explore.metric('lur');
  const lsr = await explore.metric('lsr');

  const nodeTestId = await explore.tabToNode('lateral');
  await page.keyboard.press('Enter');
  await expect(explore.memoryPanel).toBeVisible();
  await expect(explore.memoryPanel).toHaveAttribute('data-mode', 'lateral');
  await expect(explore.memoryPanel.getByTestId('memory-text')).not.toBeEmpty();
  await expect(explore.memoryPanel.getByTestId('space-explanation')).toBeVisible();
  await expect(explore.spaceRow('E2')).toHaveAttribute('data-state', 'excluded');
  // Escape closes it and focus returns to the node; Enter opens it again.
  await page.keyboard.press('Escape');
  await expect(explore.memoryPanel).toBeHidden();
  await expect(page.getByTestId(nodeTestId)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(explore.memoryPanel).toBeVisible();

  await explore.memoryPanel.getByRole('button', { name: 'Reinforce' }).click();
  await expect(explore.feedbackMessage).toContainText('Reinforced');
  await expect(explore.feedbackMessage).toContainText('lateral result');
  // the line names the memory by its words, never by its id
  await expect(explore.feedbackMessage).not.toContainText(/[0-9a-f]{8}-[0-9a-f]{4}-/);
  await expect.poll(() => explore.metric('lur')).toBeGreaterThan(lur);

  // Suggested tags: accepting one makes it a tag of the memory.
  const suggestion = explore.memoryPanel.locator('[data-testid^="memory-suggested-"]').first();
  const tag = ((await suggestion.getAttribute('data-testid')) ?? '').replace('memory-suggested-', '');
  expect(tag).not.toBe('');
  await suggestion.click();
  await expect(explore.memoryPanel.getByTestId(`memory-tag-${tag}`)).toBeVisible();
  await expect(explore.memoryPanel.getByTestId(`memory-suggested-${tag}`)).toHaveCount(0);

  await explore.memoryPanel.getByTestId('memory-close').click();
  await expect(explore.memoryPanel).toBeHidden();

  // Each returned lateral result takes one counted feedback: suppress another one.
  const second = await explore.tabToNode('lateral', 1);
  expect(second).not.toBe(nodeTestId);
  await page.keyboard.press('Enter');
  await expect(explore.memoryPanel).toHaveAttribute('data-mode', 'lateral');
  await explore.memoryPanel.getByTestId('memory-suppress-reason').fill('not about bread');
  await explore.memoryPanel.getByRole('button', { name: 'Suppress' }).click();
  await expect(explore.feedbackMessage).toContainText('Suppressed');
  await expect(explore.feedbackMessage).toContainText('lateral result');
  await expect.poll(() => explore.metric('lsr')).toBeGreaterThan(lsr);
  expect(await explore.metric('lhi')).toBeCloseTo(0.5, 2); // 1 suppressed of 2 feedbacks

  await explore.memoryPanel.getByTestId('memory-close').click();
  await expect(explore.memoryPanel).toBeHidden();
  // Escape inside the graph brings focus back to the query box.
  await page.getByTestId(nodeTestId).focus();
  await page.keyboard.press('Escape');
  await expect(explore.query).toBeFocused();
});

test('settings refuse an invalid threshold with the validator message and reset to defaults', async () => {
  await page.getByTestId('explore-settings').click();
  const dialog = explore.settingsDialog;
  await expect(dialog).toBeVisible();
  const high = dialog.getByTestId('settings-high-E1');
  const initial = await high.inputValue();
  expect(Number(initial)).toBeCloseTo(0.75, 5);
  await high.fill('1.7');
  await dialog.getByTestId('settings-save').click();
  await expect(dialog.getByTestId('similarity-errors')).toContainText('threshold 1.7 must be in [0.0, 1.0]');
  await expect(high).toHaveAttribute('aria-invalid', 'true');
  await dialog.getByTestId('settings-reset').click();
  await expect(high).toHaveValue(initial);

  // Recall defaults: every profile is offered, a bad value is refused with its message, a profile saves.
  const profile = dialog.getByTestId('recall-profile');
  await expect(profile.locator('option')).toHaveText([/BALANCED/, /DIVERGENT/, /DEBUGGING/, /CRITICAL/, /SYSTEMATIZER/]);
  await expect(profile).toHaveValue('BALANCED');
  await dialog.getByText('Advanced options', { exact: true }).click();
  await dialog.getByTestId('recall-option-topK').fill('0');
  await expect(dialog.getByTestId('recall-option-error-topK')).toBeVisible();
  await profile.selectOption('CRITICAL');
  await dialog.getByTestId('recall-defaults-save').click();
  await expect(dialog.getByTestId('recall-defaults-notice')).toHaveText('Recall defaults saved.');
  await profile.selectOption('BALANCED');
  await dialog.getByTestId('recall-defaults-save').click();
  await dialog.getByTestId('settings-close').click();
  await expect(dialog).toBeHidden();
});

test('screenshots of the Explore view in light and dark', async () => {
  await explore.recall(QUERY, QUERY_TAGS);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    await expect(explore.graph).toHaveAttribute('data-ready', 'true');
    await page.screenshot({ path: `e2e/screenshots/explore-${scheme}.png`, fullPage: false });
  }
  await explore.tabToNode('lateral');
  await page.keyboard.press('Enter');
  await expect(explore.memoryPanel).toBeVisible();
  await page.screenshot({ path: 'e2e/screenshots/explore-memory-dark.png' });
  await explore.memoryPanel.getByTestId('memory-close').click();
});
