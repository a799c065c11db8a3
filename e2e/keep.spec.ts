// Keeping memories (issue 9), in the real app: an edit makes a new version with a history and an
// "as it was" recall finds the old one; an earlier version says it was corrected and can be brought
// back; delete / Undo / the trash / delete selected for good / Empty trash / Delete all and its Undo (a code
// snippet among them, titled by its code); the sample collection removed in one action; unsure
// memories reviewed one by one and in bulk; saving the same text twice.
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { KeepPage } from './pages/keep-page';
import { ExplorePage } from './pages/explore-page';

test.describe.configure({ mode: 'serial' });

let context: BrowserContext;
let page: Page;
let keep: KeepPage;

const MEETING_OLD = 'The team meeting is on Tuesdays at ten in the blue room.';
const MEETING_NEW = 'The team meeting is on Thursdays at ten in the blue room.';
const BIKE = 'Repaired the bike: new chain and brake pads from the shop on Elm Street.';
const SOUP = 'Made a lentil soup with cumin, lemon and a lot of garlic.';
const SNIPPET = '```sh\ngit stash pop --index\n```';

test.beforeAll(async ({ browser }) => {
  context = await browser.newContext();
  page = await context.newPage();
  keep = new KeepPage(page);
  await keep.app.goto();
  await keep.app.waitReady();
});

test.afterAll(async () => {
  await context.close();
});

test('an edit makes a new version: the history shows both, "as it was on" recalls the old one, and the old one can be brought back', async () => {
  test.setTimeout(240_000);
  // captured as true since a past day, so the old version has a day of its own to be found on
  await keep.app.text.fill(MEETING_OLD);
  await keep.app.tags.fill('work, meetings');
  await page.getByTestId('capture-happened').fill('2025-01-06');
  const before = await keep.app.count();
  await keep.app.save.click();
  await expect(keep.app.memoryCount).toHaveText(String(before + 1), { timeout: 60_000 });

  await keep.open('Tuesdays');
  await expect(page.getByTestId('memory-view-valid')).toContainText('(still true)');
  await keep.edit({ text: MEETING_NEW });
  await expect(keep.dialogText).toHaveText(MEETING_NEW);
  await expect(keep.app.memoryCount).toHaveText(String(before + 1)); // a version, not a new memory

  await keep.showHistory();
  await expect(keep.versions).toHaveCount(2);
  await expect(keep.versions.first()).toContainText('Current version');
  await expect(keep.versions.first()).toContainText('Thursdays');
  await expect(keep.versions.nth(1)).toContainText(/Replaced on/);
  await expect(keep.versions.nth(1)).toContainText('Tuesdays');

  // the earlier version, opened, says it was corrected and leads to what replaced it
  await keep.versions.nth(1).getByTestId('history-open').click();
  await expect(keep.dialogText).toHaveText(MEETING_OLD);
  await expect(page.getByTestId('memory-corrected')).toContainText(/Corrected on /);
  await expect(page).toHaveURL(/#\/memories\?m=/);
  await page.getByTestId('open-successor').click();
  await expect(keep.dialogText).toHaveText(MEETING_NEW);
  await expect(page.getByTestId('memory-corrected')).toHaveCount(0);
  await keep.close();

  // a half-written memory waits in the form while the person looks something up in Explore
  const DRAFT = 'Half a thought about the garden fence';
  await keep.app.text.fill(DRAFT);

  // "As it was on" a day in between: only the old version was true then
  const explore = new ExplorePage(page);
  await page.getByTestId('nav-graph').click();
  await page.getByTestId('explore-options-toggle').click();
  await page.getByTestId('recall-as-of').fill('2025-06-01');
  await explore.recall('when is the team meeting');
  await expect(explore.results.filter({ hasText: 'Tuesdays' })).toHaveCount(1);
  await expect(explore.results.filter({ hasText: 'Thursdays' })).toHaveCount(0);
  // back to now: the current version, and the corrected one is not among the standard results above it
  await page.getByTestId('recall-as-of-clear').click();
  await explore.recall('when is the team meeting?');
  await expect(explore.results.first()).toContainText('Thursdays');

  // the edit was wrong after all: bring the earlier version back, as a new version (nothing lost)
  await keep.show('memories');
  await expect(keep.app.text).toHaveValue(DRAFT); // the draft came back with the view
  await keep.app.text.fill('');
  await keep.open('Thursdays');
  await keep.showHistory();
  await keep.versions.nth(1).getByRole('button', { name: 'Bring back this version' }).click();
  await expect(keep.dialogText).toHaveText(MEETING_OLD, { timeout: 60_000 });
  await expect(keep.toast(/Brought back the version replaced on/)).toContainText('kept in the history');
  await expect(keep.versions).toHaveCount(3);
  await expect(keep.versions.first()).toContainText('Tuesdays');
  await expect(keep.versions.nth(1)).toContainText('Thursdays');
  await expect(keep.versions.first().getByRole('button', { name: 'Bring back this version' })).toHaveCount(0); // the current one
  await keep.close();
  await expect(keep.app.memoryCount).toHaveText(String(before + 1));
});

test('delete moves to the trash with Undo; the trash restores, deletes one for good, empties; Delete all asks for typed words', async () => {
  test.setTimeout(240_000);
  await keep.show('memories');
  await keep.app.addAndWait(BIKE, { tags: 'bike' });
  await keep.app.addAndWait(SOUP, { tags: 'cooking' });
  await keep.app.addAndWait(SNIPPET, { tags: 'code' });
  await expect(keep.row(SNIPPET.split('\n')[1]!).getByTestId('memory-row-open')).toHaveText('git stash pop --index'); // not "```sh"
  const n = await keep.total();

  // delete from the opened memory, then Undo in the toast
  await keep.open('Repaired the bike');
  await keep.dialog.getByTestId('memory-delete').click();
  await expect(keep.dialog).toBeHidden();
  await expect(keep.count).toHaveText(String(n - 1));
  await keep.undo(/Moved .*Repaired the bike.* to the trash/);
  await expect(keep.count).toHaveText(String(n));
  await expect(keep.row('Repaired the bike')).toHaveCount(1);

  // delete three by selection; the Trash lists them (30 days), one is restored
  await keep.select('Repaired the bike');
  await keep.select('lentil soup');
  await keep.select('git stash pop');
  await expect(keep.bulk.getByTestId('bulk-count')).toHaveText('3 memories selected');
  await keep.bulk.getByRole('button', { name: 'Delete' }).click();
  await expect(keep.count).toHaveText(String(n - 3));
  await keep.show('trash');
  await expect(page.getByTestId('trash-view')).toContainText('30 days');
  await expect(keep.total('trash-count')).resolves.toBe(3);
  await keep.row('lentil soup').getByRole('button', { name: /^Restore/ }).click();
  await expect(page.getByTestId('trash-count')).toHaveText('2');

  // on a phone the three lists stay on one line (the count beside Trash wrapped it), and a row's
  // line of date and tags fades at its end instead of cutting a tag in half
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => keep.listLinkRows()).toBe(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await keep.listLinksFit()).toBe(true);
  expect(await keep.row('git stash pop').locator('.row__meta').evaluate((el) => getComputedStyle(el).maskImage)).toMatch(/linear-gradient/);
  await page.setViewportSize({ width: 1280, height: 720 });

  // one of them for good, now: asked first; the rest of the trash stays
  await keep.select('git stash pop');
  await page.getByRole('button', { name: 'Delete selected for good' }).click();
  await expect(keep.confirm).toContainText('The rest of the trash stays.');
  await keep.confirmWith('Delete for good');
  await expect(page.getByTestId('trash-count')).toHaveText('1');
  await expect(keep.row('git stash pop')).toHaveCount(0);
  await expect(keep.row('Repaired the bike')).toHaveCount(1);

  // Empty trash: asked first, then gone for good
  await page.getByTestId('empty-trash').click();
  await keep.confirmWith('Empty trash');
  await expect(page.getByTestId('trash-empty')).toBeVisible();
  await keep.show('memories');
  await expect(keep.count).toHaveText(String(n - 2));
  await expect(keep.row('Repaired the bike')).toHaveCount(0);
  await expect(keep.row('git stash pop')).toHaveCount(0);
  await expect(keep.row('lentil soup')).toHaveCount(1);

  // Delete all: the button works only once the words are typed; everything goes to the trash
  await page.getByTestId('delete-all').click();
  await expect(keep.confirm.getByRole('button', { name: 'Delete all memories' })).toBeDisabled();
  await keep.confirm.getByTestId('confirm-input').fill('delete');
  await expect(keep.confirm.getByRole('button', { name: 'Delete all memories' })).toBeDisabled();
  await keep.confirmWith('Delete all memories', 'delete all');
  await expect(keep.count).toHaveText('0');
  await expect(page.getByTestId('memories-empty')).toContainText(`Nothing here: ${n - 2} memories are in the trash`);
  // the toast's Undo brings every one of them back
  await keep.undo(`Moved all ${n - 2} memories to the trash.`);
  await expect(keep.toast(`Put back all ${n - 2} memories.`)).toBeVisible();
  await expect(keep.count).toHaveText(String(n - 2));
  await expect(keep.row('lentil soup')).toHaveCount(1);
  // deleted all again: from the trash, all at once
  await page.getByTestId('delete-all').click();
  await keep.confirmWith('Delete all memories', 'delete all');
  await expect(keep.count).toHaveText('0');
  await keep.show('trash');
  await expect(page.getByTestId('trash-count')).toHaveText(String(n - 2));
  await page.getByRole('button', { name: 'Select all' }).click();
  await page.getByRole('button', { name: 'Restore selected' }).click();
  await expect(page.getByTestId('trash-empty')).toBeVisible();
  await keep.show('memories');
  await expect(keep.count).toHaveText(String(n - 2));
});

test('the sample collection is removed in one action, leaving the person’s own memories', async () => {
  test.setTimeout(240_000);
  await keep.show('memories');
  const own = await keep.total();
  // 40 memories marked as the sample collection (copies of a stored one: no re-embedding)
  await keep.seedCopies(await keep.idOf('lentil soup'), 40, { sample: true, prefix: 'Sample memory' });
  await page.reload();
  await keep.app.waitReady();
  await expect(keep.count).toHaveText(String(own + 40));
  await page.getByTestId('remove-sample').click();
  await keep.confirmWith('Remove sample collection');
  await expect(keep.count).toHaveText(String(own));
  await expect(keep.row('Sample memory')).toHaveCount(0);
  await expect(page.getByTestId('remove-sample')).toHaveCount(0);
  await expect(keep.row('lentil soup')).toHaveCount(1);
});

test('unsure memories leave search, wait in Review with their source, and are kept or discarded one by one or together', async () => {
  test.setTimeout(240_000);
  await keep.show('memories');
  for (const [text, source] of [
    ['Heard the bakery on Rue Cler closes in August.', 'a neighbour'],
    ['Maybe the dentist moved the appointment to the 14th.', 'voicemail'],
    ['Someone said the library fines were dropped.', 'forum post'],
    ['The plumber might come on Friday morning.', 'text message'],
  ]) {
    await keep.app.text.fill(text);
    await keep.app.source.fill(source);
    const before = await keep.app.count();
    await keep.app.save.click();
    await expect(keep.app.memoryCount).toHaveText(String(before + 1), { timeout: 60_000 });
  }

  // one marked from its view: search no longer finds it
  await keep.open('bakery on Rue Cler');
  await keep.dialog.getByTestId('memory-mark-unsure').click();
  await expect(page.getByTestId('memory-unsure')).toBeVisible();
  await keep.close();
  await keep.app.searchFor('bakery Rue Cler August');
  // the search has answered (results, none, or "nothing close" above the far ones: both can show)
  await expect(page.getByTestId('search-results').or(page.getByTestId('search-empty')).or(page.getByTestId('search-nothing-close')).first()).toBeVisible();
  await expect(keep.app.resultWith('Rue Cler')).toHaveCount(0);
  await keep.app.searchFor('');

  // three marked together
  for (const t of ['dentist', 'library fines', 'plumber']) await keep.select(t);
  await keep.bulk.getByRole('button', { name: 'Mark unsure' }).click();
  await expect(keep.bulk).toBeHidden();

  await keep.show('review');
  await expect(page.getByTestId('review-count')).toHaveText('4');
  // a phone with counts beside Review and Trash: the lists still fit on one line, the page does not scroll sideways
  await page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(() => keep.listLinkRows()).toBe(1);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  expect(await keep.listLinksFit()).toBe(true);
  await page.setViewportSize({ width: 1280, height: 720 });
  await expect(keep.row('bakery on Rue Cler')).toContainText('from a neighbour');
  // one kept (validated), one discarded
  await keep.row('bakery on Rue Cler').getByRole('button', { name: /^Keep/ }).click();
  await expect(page.getByTestId('review-count')).toHaveText('3');
  await keep.row('plumber').getByRole('button', { name: /^Discard/ }).click();
  await expect(page.getByTestId('review-count')).toHaveText('2');
  // the rest together: keep one, discard the other
  await keep.select('dentist');
  await page.getByTestId('review-keep-selected').click();
  await expect(page.getByTestId('review-count')).toHaveText('1');
  await keep.select('library fines');
  await page.getByTestId('review-discard-selected').click();
  await expect(page.getByTestId('review-empty')).toBeVisible();

  // kept ones are found again; discarded ones are in the trash
  await keep.show('memories');
  await keep.app.searchFor('bakery Rue Cler August');
  await expect(keep.app.resultWith('Rue Cler')).toHaveCount(1);
  await keep.app.searchFor('');
  await keep.show('trash');
  await expect(keep.row('plumber')).toHaveCount(1);
  await expect(keep.row('library fines')).toHaveCount(1);
});

test('saving the same text again says so and opens the memory already saved', async () => {
  await keep.show('memories');
  const n = await keep.total();
  await keep.app.text.fill(`  ${SOUP.replace('cumin, ', 'cumin,\n')}  `); // the same words, other spacing
  await keep.app.save.click();
  await expect(page.getByTestId('capture-duplicate')).toContainText('You already saved this exact text');
  await expect(keep.count).toHaveText(String(n));
  await page.getByTestId('open-duplicate').click();
  await expect(keep.dialogText).toHaveText(SOUP);
  await keep.close();
});

test('the first-run guide: folded to one line once memories exist, brought back unfolded from another view by Settings', async () => {
  await keep.show('memories');
  const guide = page.getByTestId('first-run-guide');
  await expect(guide).toHaveAttribute('data-open', 'false');
  await expect(guide.getByRole('button', { name: 'Show the steps' })).toHaveAttribute('aria-expanded', 'false');
  await expect(guide.getByTestId('guide-try-meaning')).toBeHidden();
  await page.getByTestId('nav-data').click();
  await expect(guide).toHaveCount(0); // not above every view
  await page.getByTestId('open-settings').click();
  await page.getByTestId('settings-show-guide').click();
  await expect(page.getByTestId('nav-memories')).toHaveAttribute('aria-current', 'page');
  await expect(guide).toHaveAttribute('data-open', 'true');
  await expect(guide.getByRole('heading', { level: 2 })).toBeFocused();
  await expect(guide.getByTestId('guide-try-meaning')).toBeEnabled();
  await guide.getByRole('button', { name: 'Hide the steps' }).click();
  await expect(guide).toHaveAttribute('data-open', 'false');
});
