// Careful ranking (issue 8): MPNet re-reads the refined answer's top 30. On a small store (three
// memories) the background reading finishes; "fixing my automobile" is then re-scored by the
// judge's cosines (MPNet: mechanic 0.416, bike chain 0.234) at the shipped weight 0.25,
// score' = (score + 0.25 x cos) / 1.25 (checked within the shown scores' rounding), which narrows
// the bike chain's lead (measured 0.50 / 0.43 -> 0.45 / 0.43) but does not reverse it: the refined
// ranking puts the bike chain ~0.07 ahead, more than the judge's 0.25 x (0.416 - 0.234) = 0.046 can
// make up (with two memories the mechanic leads with and without the judge; with four or six the
// bike chain does). Off, the answer is the refined one without the judge (the shared word wins);
// after a reload offline careful ranking applies again (its worker kept its files on first read);
// then deeper search, forced to escalate, reads with the judge and says so (issue 11).
import { existsSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { AppPage } from './pages/app-page';
import { CarefulPage } from './pages/careful-page';
import { DeepRecallPage } from './pages/deep-recall-page';
import { ExplorePage } from './pages/explore-page';

// every other spec runs with careful ranking switched off (e2e/README.md): this one clears the switch
test.use({ storageState: { cookies: [], origins: [] } });

const MECHANIC = 'the mechanic replaced the timing belt';
const BIKE = 'the neighbour fixed my bike chain';
const OTHER = 'the dentist moved my appointment to friday';
const QUERY = 'fixing my automobile';
/** MPNet's cosines of QUERY with each (the brief's reference figures, int8 model). */
const COS = { mechanic: 0.416, bike: 0.234 };
const W = 0.25;
/** Both shown scores are rounded to 0.01: the judged one is within 0.01 of the hand-worked value. */
const judged = (plain: number, cos: number) => (plain + W * cos) / (1 + W);

// the judge is built by `npm run prepare-assets` where Python (with venv) and PyPI are reachable; where
// it could not be, the build printed NOT INSTALLED and the app ranks without it: nothing to test here
const BUILT = existsSync('dist/models/all-mpnet-base-v2-int8/onnx/model_quantized.onnx');
if (!BUILT) console.warn('judge.spec skipped: dist/models/all-mpnet-base-v2-int8/ is not built (npm run prepare-assets needs Python and PyPI)');

test.skip(!BUILT, 'the judge is not built here (prepare-assets said NOT INSTALLED)');

test('careful ranking reads the memories, re-scores the answer by hand-worked amounts, steps aside when off, and works offline', async ({ page, context }) => {
  test.setTimeout(420_000); // the judge's 111 MB loaded twice (online, then offline from the cache)
  const app = new AppPage(page);
  const explore = new ExplorePage(page);
  const careful = new CarefulPage(page);
  await app.goto();
  await app.waitReady();
  for (const t of [BIKE, MECHANIC, OTHER]) await app.addAndWait(t);
  await careful.waitAllRead(3);

  await page.getByTestId('nav-graph').click();
  await explore.recall(QUERY);
  await expect(careful.view).toHaveAttribute('data-recall-careful', 'applied');
  await expect(page.getByTestId('careful-note')).toContainText('Checked carefully');
  const on = { mechanic: await careful.scoreOf(MECHANIC), bike: await careful.scoreOf(BIKE) };
  const onOrder = { mechanic: await careful.rankOf(MECHANIC), bike: await careful.rankOf(BIKE) };

  await careful.set(false);
  await explore.recall(QUERY);
  await expect(careful.view).toHaveAttribute('data-recall-refined', 'true');
  await expect(page.getByTestId('careful-note')).toHaveCount(0);
  const off = { mechanic: await careful.scoreOf(MECHANIC), bike: await careful.scoreOf(BIKE) };
  const offOrder = { mechanic: await careful.rankOf(MECHANIC), bike: await careful.rankOf(BIKE) };
  console.log(`"${QUERY}": with careful ranking ${JSON.stringify(on)} ${JSON.stringify(onOrder)}, without ${JSON.stringify(off)} ${JSON.stringify(offOrder)}`);
  expect(Math.abs(on.mechanic - judged(off.mechanic, COS.mechanic))).toBeLessThanOrEqual(0.01);
  expect(Math.abs(on.bike - judged(off.bike, COS.bike))).toBeLessThanOrEqual(0.01);
  expect(on.bike - on.mechanic).toBeLessThan(off.bike - off.mechanic); // the judge prefers the mechanic
  expect(offOrder.bike).toBeLessThan(offOrder.mechanic); // without it the shared word ("fixed") wins

  await careful.set(true);
  await app.waitOfflineReady();
  await context.setOffline(true);
  try {
    await page.reload(); // the address keeps Explore open
    await expect(app.modelStatus).toHaveAttribute('data-phase', 'ready', { timeout: 90_000 });
    await careful.waitAllRead(3);
    await page.getByTestId('nav-graph').click();
    await explore.recall(QUERY);
    await expect(careful.view).toHaveAttribute('data-recall-careful', 'applied');
    expect(await careful.scoreOf(MECHANIC)).toBe(on.mechanic);
    expect(await careful.scoreOf(BIKE)).toBe(on.bike);
  } finally {
    await context.setOffline(false);
  }

  // deeper search reads with careful ranking (issue 11): one result asked for, every recall
  // escalated (threshold 1); the judge's query vector is taken on the escalation and the pool read
  // with its stored vectors. The bike chain leads the first pass (the shared word); the mechanic,
  // which the judge reads as closer (0.416 against 0.234), is added and says how.
  const t0 = Date.now();
  const deep = new DeepRecallPage(page);
  await deep.setTopK(1);
  await deep.setDeepSearch('active');
  await deep.setDeepDetail('threshold', '1');
  await deep.recall(QUERY);
  await expect(deep.deepNote).toHaveAttribute('data-status', 'merged');
  await expect(deep.deepNote).toContainText('with careful ranking and added 1');
  const found = deep.results.filter({ has: page.getByTestId('explore-result-found') });
  await expect(found).toContainText(MECHANIC);
  await expect(found.getByTestId('explore-result-found')).toContainText('close in meaning, by careful ranking');
  const figures = page.getByTestId('deep-note-figures');
  await expect(figures).toContainText("read with careful ranking's judge: 3 of 3 memories had its vector");
  const shots = '/tmp/shots-s7-appjudge';
  await page.screenshot({ path: `${shots}/deep-judge-light.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `${shots}/deep-judge-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
  // a question not asked before: the judge's vector of it is taken on this escalation (the figure is
  // the judge's whole round trip: its query vector, the stored vectors read, the worker messages)
  await deep.recall('my car broke down on the motorway');
  await expect(deep.deepNote).toContainText('with careful ranking');
  const line = (await figures.allTextContents()).join(' ');
  console.log(`deeper search with careful ranking: ${Date.now() - t0} ms for the step; a new question's ${/judge: .*? · \d+ ms/.exec(line)?.[0]}; ${/total \d+ ms/.exec(line)?.[0]}`);
  await page.setViewportSize({ width: 390, height: 844 });
  await deep.deepNote.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${shots}/deep-judge-phone.png` });
});
