// Pictures on memories (issue 12), in the real app: a picture attached with the file button and one
// pasted into the form are saved with their memories; the opened memory shows the picture with its
// caption as alt text; Explore draws it as the node's thumbnail; after a reload both are still
// there; a word of a caption finds its memory. Bad input: a text file named .png and a damaged PNG
// each get a clear message and nothing is attached or saved. axe on the views with a picture;
// screenshots light, dark and 390x844 into /tmp/shots-images/.
import { mkdirSync } from 'node:fs';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { damagedPng, solidPng } from '../src/testing/png';
import { expectAccessibleInBothThemes } from './fixtures/axe';
import { ExplorePage } from './pages/explore-page';
import { PicturesPage } from './pages/pictures-page';

test.describe.configure({ mode: 'serial' });

const SHOTS = '/tmp/shots-images';
mkdirSync(SHOTS, { recursive: true });

const DOOR = 'Painted the front door on Saturday morning with two coats.';
const DOOR_CAPTION = 'The lighthouse red front door, freshly painted';
const PIER = 'Walked to the end of the old pier after lunch.';
const PIER_CAPTION = 'Seagulls circling over the wooden pier';

// stripes, so the thumbnails read as pictures in the screenshots
const door = solidPng(96, 72, [[190, 40, 40], [235, 225, 210], [190, 40, 40], [60, 60, 70]]);
const pier = solidPng(80, 80, [[120, 170, 220], [240, 240, 240], [120, 110, 90]]);

let context: BrowserContext;
let page: Page;
let pics: PicturesPage;

test.beforeAll(async ({ browser }, info) => {
  info.setTimeout(300_000);
  context = await browser.newContext();
  page = await context.newPage();
  pics = new PicturesPage(page);
  await pics.open();
});

test.afterAll(async () => {
  await context.close();
});

test('a chosen and a pasted picture are kept with their memories, shown, drawn in the graph, kept across a reload and found by caption', async () => {
  test.setTimeout(480_000);
  // chosen with the button
  await pics.attach('door.png', door);
  await expect(pics.pickerThumb).toBeVisible();
  await pics.caption.fill(DOOR_CAPTION);
  await pics.picker.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/capture-light.png` });
  await pics.save(DOOR, DOOR_CAPTION);
  // pasted into the text box
  await pics.paste('image.png', pier);
  await pics.save(PIER, PIER_CAPTION);

  // the list says which memory has a picture; the opened memory shows it, its caption as alt text and below it
  await expect(pics.keep.row(/Painted the front door/).getByTestId('row-picture')).toHaveText('with a picture');
  await pics.keep.open(/Painted the front door/);
  await pics.expectOpenedPicture(DOOR_CAPTION);
  await page.screenshot({ path: `${SHOTS}/memory-light.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.screenshot({ path: `${SHOTS}/memory-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
  await expectAccessibleInBothThemes(page, 'the opened memory with a picture');
  await pics.keep.close();

  // Explore: the memory's node says it has a picture and draws its thumbnail
  const explore = new ExplorePage(page);
  await page.getByTestId('nav-graph').click();
  await expect(explore.query).toBeVisible();
  await explore.recall('painted the front door');
  const node = pics.graphNode(/with a picture: The lighthouse red front door/);
  await expect(node).toHaveAttribute('data-picture', 'drawn');
  await expect.poll(async () => Number(await explore.graph.locator('canvas').getAttribute('data-pictures'))).toBeGreaterThanOrEqual(1);
  await explore.graph.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/graph-light.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect.poll(async () => Number(await explore.graph.locator('canvas').getAttribute('data-pictures'))).toBeGreaterThanOrEqual(1);
  await page.screenshot({ path: `${SHOTS}/graph-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
  await expectAccessibleInBothThemes(page, 'Explore with a picture in the graph');
  // the node opens the memory with its picture (from the keyboard: the canvas draws, the proxies act)
  await node.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('memory-panel')).toBeVisible();
  await pics.expectOpenedPicture(DOOR_CAPTION);
  await page.getByTestId('memory-panel').getByTestId('memory-close').click();

  // after a reload: still stored, shown and findable by a word only its caption has
  await page.reload(); // the address keeps Explore: back to the list first
  await expect(pics.keep.app.modelStatus).toHaveAttribute('data-phase', 'ready', { timeout: 240_000 });
  await pics.keep.show('memories');
  await pics.keep.app.waitReady();
  await pics.keep.open(/Walked to the end of the old pier/);
  await pics.expectOpenedPicture(PIER_CAPTION);
  // a phone
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/memory-phone.png` });
  await pics.keep.close();
  await page.setViewportSize({ width: 1280, height: 720 });
  await pics.keep.app.searchFor('seagulls');
  await expect(pics.keep.app.resultWith(/Walked to the end of the old pier/)).toBeVisible();
  await expect(pics.keep.app.results).toHaveCount(1);
});

test('a file that is not a picture, and a damaged picture, are refused with a clear message; nothing is attached or saved', async () => {
  test.setTimeout(180_000);
  await pics.keep.show('memories');
  const before = await pics.keep.app.count();
  await pics.attach('holiday.png', new TextEncoder().encode('These are my notes, not a photo.'));
  await expect(pics.pickerError).toHaveText('"holiday.png" is not a picture this app can keep (PNG, JPEG, GIF or WebP, checked from its content, not its name). Nothing was attached.');
  await expect(pics.pickerThumb).toHaveCount(0);
  await pics.attach('broken.png', damagedPng());
  await expect(pics.pickerError).toHaveText('This picture could not be read (the file may be damaged or cut short). Nothing was attached.');
  await expect(pics.pickerThumb).toHaveCount(0);
  await expect(pics.picker).toHaveAttribute('data-state', 'empty');
  await pics.picker.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/bad-input-light.png` });
  // on a phone the form is folded behind "New memory": open it, attach, and look
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('button', { name: 'New memory' }).click();
  await pics.attach('pier.png', pier);
  await pics.caption.fill(PIER_CAPTION);
  await pics.picker.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/capture-phone.png` });
  await pics.picker.getByRole('button', { name: 'Remove picture' }).click();
  await expect(pics.picker).toHaveAttribute('data-state', 'empty');
  await page.setViewportSize({ width: 1280, height: 720 });
  // the memory is saved without a picture, and the count moved by one only
  await pics.keep.app.addAndWait('A note typed after two refused files.');
  expect(await pics.keep.app.count()).toBe(before + 1);
});
