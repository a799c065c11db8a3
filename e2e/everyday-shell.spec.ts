// Everyday use of the app shell (issue 12, points 9, 10, 12, 15, 16 and the command palette and
// first-run guide), on the real encoder, one page in order: the first visit (guide, sample offered
// in the empty Memories view, the phone layout), loading the sample with honest progress, the
// guide's three steps, Explore and the memory panel, Settings, the palette and shortcuts, Your data.
// axe runs on every view and dialog in light and dark at 1280×800 and 390×844; screenshots of each
// go to e2e/screenshots/shell-*.png.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { expectAccessibleInBothThemes } from './fixtures/axe';
import { ExplorePage } from './pages/explore-page';
import { ShellPage, DESKTOP } from './pages/shell-page';

test.describe.configure({ mode: 'serial' });

let context: BrowserContext;
let page: Page;
let shell: ShellPage;
let explore: ExplorePage;

test.beforeAll(async ({ browser }) => {
  // axe needs a page of a context made by the test (not browser.newPage)
  context = await browser.newContext({ viewport: DESKTOP, reducedMotion: 'reduce' });
  page = await context.newPage();
  shell = new ShellPage(page);
  explore = new ExplorePage(page);
  await shell.open();
});

test.afterAll(async () => {
  await context?.close();
});

/** Every word of the element is on one line: a word broken mid-way has two boxes. */
async function brokenWords(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluate((el) => {
    const broken: string[] = [];
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent ?? '';
      for (const m of text.matchAll(/\S+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index);
        r.setEnd(n, m.index + m[0].length);
        const lines = new Set([...r.getClientRects()].map((b) => Math.round(b.top)));
        if (lines.size > 1) broken.push(m[0]);
      }
    }
    return broken;
  });
}

test('first visit: one h1, the guide, the sample offered in the empty Memories view; on a phone a short header and search first', async () => {
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Mnemograph');
  await expect(shell.guide).toBeVisible();
  await expect(shell.guide.getByTestId('guide-try-meaning')).toBeDisabled(); // nothing to search yet
  await expect(page.getByRole('main').getByTestId('sample-loader')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Start with the sample collection' })).toBeVisible();
  expect((await shell.header.boundingBox())!.height).toBeLessThan(80); // one row at 1280
  await expectAccessibleInBothThemes(page, 'Memories, empty, 1280×800');
  await shell.shots('memories-empty', 'desktop');

  await shell.resize('phone');
  await expect(page.getByTestId('new-memory')).toBeVisible(); // the phone layout is in place
  const header = (await shell.header.boundingBox())!;
  expect(header.height).toBeLessThanOrEqual(64); // was 175 px
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // search comes first and sits in the first screen; the capture form waits behind "New memory"
  const search = (await shell.search.boundingBox())!;
  expect(search.y + search.height).toBeLessThan(844);
  const newMemory = page.getByTestId('new-memory');
  expect((await newMemory.boundingBox())!.y).toBeGreaterThan(search.y);
  await expect(page.getByTestId('capture-text')).toHaveCount(0);
  await newMemory.click();
  await expect(page.getByTestId('capture-text')).toBeFocused();
  await page.getByRole('button', { name: 'Fold the new-memory form' }).click();
  await expect(page.getByTestId('capture-text')).toHaveCount(0);
  // the views fold behind a button naming the current one
  await expect(page.getByTestId('nav-graph')).toBeHidden();
  await expect(shell.menuToggle).toHaveText(/Memories/);
  await shell.menuToggle.click();
  await expect(shell.menuToggle).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('nav-graph')).toBeVisible();
  await shell.shots('menu', 'phone');
  await shell.menuToggle.click();
  await expect(page.getByTestId('nav-graph')).toBeHidden();
  await expectAccessibleInBothThemes(page, 'Memories, empty, 390×844');
  await shell.shots('memories-empty', 'phone');
  await shell.resize('desktop');
});

test('loading the sample: the phase is named, progress moves per batch with the time left, then the count follows', async () => {
  test.setTimeout(420_000);
  // every text the progress line shows, recorded by the page as it changes
  await page.evaluate(() => {
    const seen: string[] = [];
    (window as unknown as { __progress: string[] }).__progress = seen;
    new MutationObserver(() => {
      const el = document.querySelector('[data-testid="sample-progress-text"]');
      const t = el ? `${el.getAttribute('data-sample-phase')}|${el.textContent}` : null;
      if (t && seen[seen.length - 1] !== t) seen.push(t);
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const started = Date.now();
  await page.getByRole('main').getByTestId('sample-load').click();
  await expect(page.getByTestId('sample-progress-text')).toContainText(/Understanding the memories: \d+ of 323/);
  await shell.shots('sample-progress', 'desktop');
  await expect(shell.memoryCount).toHaveText('323', { timeout: 400_000 });
  const ms = Date.now() - started;
  test.info().annotations.push({ type: 'sample load (ms, click to 323 listed)', description: String(ms) });
  console.log(`[shell] sample load: ${ms} ms from the click to 323 memories listed`);
  await expect(shell.toasts.filter({ hasText: 'Sample collection loaded: 323 memories.' })).toBeVisible();

  const seen = await page.evaluate(() => (window as unknown as { __progress: string[] }).__progress);
  const counts = seen.filter((s) => s.startsWith('embedding|')).map((s) => Number(/: (\d+) of 323/.exec(s)?.[1]));
  expect(counts.length).toBeGreaterThanOrEqual(5); // moved batch by batch, not 0 then 323
  expect(counts).toEqual([...counts].sort((a, b) => a - b));
  expect(counts.at(-1)).toBeGreaterThanOrEqual(320);
  expect(seen.some((s) => /left/.test(s))).toBe(true); // a time-left estimate once there was a pace
  expect(seen.some((s) => /^(saving|indexing)\|/.test(s))).toBe(true); // the phases after the encoder are named
});

test('the first-run guide: folded once memories exist, runs its three steps on the sample, stays off Explore, once dismissed never shows again', async () => {
  await expect(shell.guide).toBeVisible();
  await expect(shell.guide.getByTestId('guide-try-meaning')).toBeHidden(); // folded: the sample is in
  await shell.unfoldGuide();
  await shell.guide.getByTestId('guide-try-meaning').click();
  await expect(page.getByTestId('nav-graph')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { name: 'Graph for “my vegetable plants look sick”' })).toBeVisible({ timeout: 60_000 });
  await expect(explore.results.first()).toBeVisible();
  await expect(shell.guide).toHaveCount(0); // Explore starts with its own content

  await shell.goTo('memories');
  await shell.guide.getByTestId('guide-try-lateral').click(); // still unfolded
  await expect(page.getByRole('heading', { name: 'Graph for “why didn\'t my bread rise”' })).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('explore-profile')).toHaveText('DIVERGENT');
  await expect(page.locator('[data-testid="explore-result"][data-mode="lateral"]').first()).toBeVisible({ timeout: 60_000 });

  await shell.goTo('memories');
  await shell.guide.getByTestId('guide-try-chains').click();
  await expect(page.getByRole('heading', { name: 'Graph for “race condition in the job queue”' })).toBeVisible({ timeout: 60_000 });
  await expect(page.locator('[data-testid="explore-result"][data-mode="associative"]').first()).toBeVisible({ timeout: 60_000 });
  await expect(explore.graph).toHaveAttribute('data-ready', 'true');
  await shell.shots('guide-explore', 'desktop');

  await shell.goTo('memories');
  await shell.guide.getByTestId('guide-skip').click();
  await expect(shell.guide).toBeHidden();
  await page.reload();
  await expect(page.getByTestId('first-run-guide-dismissed')).toBeAttached(); // the stored choice was read…
  await expect(shell.guide).toHaveCount(0); // …and the guide stays away
  await expect(page.getByTestId('model-status')).toHaveAttribute('data-phase', 'ready', { timeout: 90_000 });
});

test('Explore with results and an open memory: axe clean in light and dark at both sizes; Escape closes the panel after a suggested tag', async () => {
  await shell.goTo('graph');
  await explore.recall("why didn't my bread rise");
  await expectAccessibleInBothThemes(page, 'Explore with results, 1280×800');
  await shell.shots('explore', 'desktop');
  await explore.results.first().click();
  await expect(explore.memoryPanel).toBeVisible();
  await expectAccessibleInBothThemes(page, 'Explore, memory panel, 1280×800');
  await shell.shots('memory-panel', 'desktop');
  const suggested = explore.memoryPanel.locator('[data-testid^="memory-suggested-"]').first();
  await expect(suggested).toBeVisible();
  await suggested.click();
  expect(await explore.memoryPanel.evaluate((p) => p.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await expect(explore.memoryPanel).toBeHidden();

  await shell.resize('phone');
  await expect(explore.graph).toHaveAttribute('data-ready', 'true');
  const heading = page.getByRole('heading', { name: /^Graph for/ });
  await heading.scrollIntoViewIfNeeded();
  expect(await brokenWords(page, 'h2:has-text("Graph for")')).toEqual([]); // "Graph" no longer breaks mid-word
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shell.shots('explore', 'phone');
  await expectAccessibleInBothThemes(page, 'Explore with results, 390×844');
  await explore.results.first().click();
  await expect(explore.memoryPanel).toBeVisible();
  await shell.shots('memory-panel', 'phone');
  await expectAccessibleInBothThemes(page, 'Explore, memory panel, 390×844');
  await page.keyboard.press('Escape');
  await expect(explore.memoryPanel).toBeHidden();
  await shell.resize('desktop');
});

test('Settings: everyday settings first, the thresholds behind Advanced with each error under its field; it fits a phone', async () => {
  await shell.openSettings();
  const s = shell.settings;
  await expect(s.getByTestId('settings-everyday')).toBeVisible();
  for (const id of ['settings-theme-system', 'settings-encoder', 'settings-divergence-alerts', 'settings-backup-reminder', 'settings-default-profile'])
    await expect(s.getByTestId(id)).toBeVisible();
  await expect(s.getByTestId('settings-high-E1')).toBeHidden(); // expert figures folded
  await expectAccessibleInBothThemes(page, 'Settings, 1280×800');
  await shell.shots('settings', 'desktop');

  await s.getByTestId('settings-advanced').locator('> summary').click();
  const high = s.getByTestId('settings-high-E1');
  await high.fill('1.7');
  await s.getByTestId('settings-save').click();
  const err = s.getByTestId('settings-error-high-E1');
  await expect(err).toContainText('threshold 1.7 must be in [0.0, 1.0]');
  await expect(high).toBeFocused(); // the eye goes to what needs fixing
  const field = (await high.boundingBox())!;
  const msg = (await err.boundingBox())!;
  expect(msg.y - (field.y + field.height)).toBeLessThan(40); // right under the field, not ~960 px above Save
  await expectAccessibleInBothThemes(page, 'Settings, advanced with an error, 1280×800');
  await s.getByTestId('settings-reset').click();
  await expect(high).toHaveValue('0.75');

  // the default profile saves beside itself
  await s.getByTestId('settings-default-profile').selectOption('DIVERGENT');
  await expect(s.getByTestId('settings-default-profile-saved')).toHaveText('Saved.');
  await s.getByTestId('settings-default-profile').selectOption('BALANCED');

  await shell.resize('phone');
  const box = (await s.boundingBox())!;
  expect(box.width).toBeLessThanOrEqual(390);
  expect(await s.evaluate((d) => d.scrollWidth - d.clientWidth)).toBeLessThanOrEqual(0); // nothing scrolls sideways
  await high.fill('abc');
  await s.getByTestId('settings-save').click();
  await expect(s.getByTestId('settings-error-high-E1')).toBeVisible();
  await shell.shots('settings-advanced', 'phone');
  await expectAccessibleInBothThemes(page, 'Settings, 390×844');
  await s.getByTestId('settings-reset').click();
  await high.evaluate((el) => el.closest('.xs-dialog')?.scrollTo(0, 0));
  await shell.shots('settings', 'phone');
  await shell.closeSettings();
  await shell.resize('desktop');
});

test('divergence alerts off: a recall far from recent work shows no alert; on again, it does', async () => {
  // recent work: two memories on one topic, captured now
  await shell.goTo('memories');
  for (const text of ['Simmered a tomato sauce with basil and garlic for Sunday', 'Roasted garlic and basil for the tomato sauce']) {
    const before = await shell.count();
    await page.getByTestId('capture-text').fill(text);
    await page.getByRole('button', { name: 'Save memory' }).click();
    await expect(shell.memoryCount).toHaveText(String(before + 1), { timeout: 60_000 });
    await expect(page.getByTestId('capture-text')).toHaveValue('', { timeout: 60_000 }); // the save has finished
  }
  await shell.goTo('graph');
  await explore.recall('kubernetes cluster autoscaler settings');
  await expect(explore.divergence).toBeVisible();
  await shell.openSettings();
  await shell.settings.getByTestId('settings-divergence-alerts').uncheck();
  await expect(shell.settings.getByTestId('settings-divergence-alerts-saved')).toHaveText('Saved.');
  await shell.closeSettings();
  await expect(explore.divergence).toBeHidden(); // the alert on screen goes at once
  await explore.recall('postgres index on the orders table');
  await expect(explore.divergence).toHaveCount(0);
  await shell.openSettings();
  await shell.settings.getByTestId('settings-divergence-alerts').check();
  await expect(shell.settings.getByTestId('settings-divergence-alerts-saved')).toHaveText('Saved.');
  await shell.closeSettings();
  await explore.recall('kubernetes cluster autoscaler settings');
  await expect(explore.divergence).toBeVisible();
});

test('command palette: Ctrl/Cmd+K lists every action, arrows and Enter run one; "/" and "?" work outside text fields only', async () => {
  await shell.goTo('memories');
  await page.getByRole('heading', { level: 1 }).click(); // focus on the page, not in a field
  await page.keyboard.press('/');
  await expect(shell.search).toBeFocused();
  await page.keyboard.type('?/');
  await expect(shell.search).toHaveValue('?/'); // typed, not shortcuts
  await expect(shell.shortcuts).toHaveCount(0);
  await shell.search.fill('');

  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('?');
  await expect(shell.shortcuts).toBeVisible();
  await expect(shell.shortcuts).toContainText('Open the command palette');
  await expectAccessibleInBothThemes(page, 'Shortcuts dialog');
  await shell.shots('shortcuts', 'desktop');
  await page.keyboard.press('Escape');
  await expect(shell.shortcuts).toBeHidden();

  await shell.openPalette();
  await expect(shell.palette).toBeVisible();
  await expect(shell.paletteOptions).toHaveCount(13);
  for (const name of ['Go to Memories', 'Go to Explore', 'Go to Your data', 'New memory', 'Search memories', 'Recall: ask a question in Explore',
    'Load the sample collection', 'Back up your memories', 'Bring memories in from files', 'Switch theme (system, light, dark)', 'Open settings',
    'Show keyboard shortcuts', 'Show the first-run guide'])
    await expect(shell.paletteOptions.filter({ hasText: name })).toHaveCount(1);
  await expect(shell.paletteInput).toHaveAttribute('aria-expanded', 'true');
  await expect(shell.paletteOptions.nth(0)).toHaveAttribute('aria-selected', 'true');
  await expectAccessibleInBothThemes(page, 'Command palette');
  await shell.shots('palette', 'desktop');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  await expect(shell.paletteOptions.nth(2)).toHaveAttribute('aria-selected', 'true');
  const active = await shell.paletteInput.getAttribute('aria-activedescendant');
  expect(active).toBe(await shell.paletteOptions.nth(2).getAttribute('id'));
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter'); // the second: Go to Explore
  await expect(shell.palette).toBeHidden();
  await expect(page.getByTestId('nav-graph')).toHaveAttribute('aria-current', 'page');

  await shell.openPalette();
  await shell.paletteInput.fill('zzqx');
  await expect(page.getByTestId('palette-none')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(shell.palette).toBeHidden();

  const theme = page.getByTestId('theme-toggle');
  await expect(theme).toContainText('System');
  await shell.run('theme');
  await expect(theme).toContainText('Light');
  await shell.run('theme');
  await expect(theme).toContainText('Dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await shell.run('theme');
  await expect(theme).toContainText('System');

  await shell.run('new memory');
  await expect(page.getByTestId('nav-memories')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('capture-text')).toBeFocused();
  await page.keyboard.press('ControlOrMeta+k'); // the palette opens even from a text field
  await expect(shell.palette).toBeVisible();
  await page.keyboard.press('Escape');

  await shell.run('settings');
  await expect(shell.settings).toBeVisible();
  await shell.closeSettings();
  await shell.run('back up');
  await expect(page.getByTestId('nav-data')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByTestId('data-backup').locator(':focus')).toHaveCount(1);
  await shell.run('recall');
  await expect(explore.query).toBeFocused();

  await shell.resize('phone');
  await shell.openPalette();
  await shell.shots('palette', 'phone');
  await expectAccessibleInBothThemes(page, 'Command palette, 390×844');
  await page.keyboard.press('Escape');
  await shell.resize('desktop');
});

test('Your data: axe clean in light and dark at both sizes; the same toast never stacks', async () => {
  await shell.goTo('data');
  await expect(page.getByTestId('data-view')).toBeVisible();
  await expectAccessibleInBothThemes(page, 'Your data, 1280×800');
  await shell.shots('data', 'desktop');
  await shell.resize('phone');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await expectAccessibleInBothThemes(page, 'Your data, 390×844');
  await shell.shots('data', 'phone');
  await shell.resize('desktop');

  await shell.goTo('memories');
  await expectAccessibleInBothThemes(page, 'Memories with the sample, 1280×800');
  await shell.shots('memories', 'desktop');
  const before = await shell.count();
  for (let i = 1; i <= 3; i++) {
    await page.getByTestId('capture-text').fill(`Quick note number ${i} about the allotment gate`);
    await page.getByRole('button', { name: 'Save memory' }).click();
    await expect(shell.memoryCount).toHaveText(String(before + i), { timeout: 60_000 });
    await expect(page.getByTestId('capture-text')).toHaveValue('', { timeout: 60_000 }); // the save has finished
  }
  await expect(shell.toasts.filter({ hasText: 'Memory saved.' })).toHaveCount(1);
  await shell.resize('phone');
  await shell.shots('memories', 'phone');
  await expectAccessibleInBothThemes(page, 'Memories with the sample, 390×844');
  await shell.resize('desktop');
});
