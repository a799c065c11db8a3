// Issue 11 (seeds 001 and 003) in the real app: a recall with expandHops 1 shows the shared name as
// an entity node with the memory it brought in; deeper search (watch only changes nothing but the
// log, a 1 ms time limit returns the first results, an unsure recall adds what it finds with how,
// the sixth escalation of a session is held back, the dashboard counts them) and looking again;
// the settings refuse a language model on another machine; the CSP lets the page reach loopback
// model servers and nothing else; a language model on this computer (a local OpenAI-compatible
// server the test starts) reads a deeper search and the memory it adds says its reason.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { expectAccessible } from './fixtures/axe';
import { AppPage } from './pages/app-page';
import { DeepRecallPage } from './pages/deep-recall-page';

const SHOTS = '/tmp/shots-deep-ui';

test.use({ viewport: { width: 1280, height: 900 } });

test('expandHops 1: the memory sharing a name joins the results, drawn through an entity node', async ({ page }) => {
  test.setTimeout(300_000); // six captures through the encoder on a shared 2-core machine
  const app = new AppPage(page);
  await app.goto();
  await app.waitReady();
  for (const text of [
    'We sailed past the lighthouse with Marta in the morning.',
    'Sailing lessons start next week.',
    'We joined the sailing club.',
    'Lighthouse tours are closed in winter.',
    'Marta cooked a huge dinner for everyone.',
    'Bought new running shoes downtown.',
  ])
    await app.addAndWait(text);

  const explore = new DeepRecallPage(page);
  await explore.switchToExplore();
  await explore.setTopK(4);
  await explore.recall('lighthouse sailing');
  await expect(explore.results).toHaveCount(4);
  await expect(explore.results.filter({ hasText: 'Marta cooked' })).toHaveCount(0);
  await expect(explore.nodesOfKind('entity')).toHaveCount(0);

  await explore.setEntityExpansion(true);
  await explore.recall('lighthouse sailing');
  await expect(explore.results.filter({ hasText: 'Marta cooked' })).toHaveCount(1);
  const entity = explore.nodesOfKind('entity');
  await expect(entity).toHaveCount(1);
  await expect(entity).toHaveAccessibleName(/Shared name: Marta/);
  await page.screenshot({ path: '/tmp/shots-deep/expand-light.png' });
});

test('deeper search: watch only, a time limit, what it adds and how, the limit per session, the dashboard, looking again', async ({ page }) => {
  test.setTimeout(480_000); // the model's load and five captures through the encoder on a shared 2-core machine
  const app = new AppPage(page);
  await app.goto();
  await app.waitReady(240_000);
  for (const text of [
    'Marta and I sailed to the lighthouse on Saturday.',
    'The fog came in fast and we turned the boat around.',
    'Back at the harbour we ate grilled sardines.',
    'Dinner with Marta.',
    'Bought new running shoes downtown.',
  ])
    await app.addAndWait(text);
  const explore = new DeepRecallPage(page);
  await explore.switchToExplore();
  await explore.setTopK(2);
  const Q = 'we ate dinner at the harbour with Marta';
  const shown = async () => [await explore.resultIds(), await page.getByTestId('explore-result-score').allTextContents()];

  await explore.recall(Q);
  const first = await shown();
  await expect(explore.deepNote).toHaveCount(0);

  // watch only, escalating every recall (threshold 1): the same results, the run is only logged (escalation 1)
  await explore.setDeepSearch('shadow');
  await explore.setDeepDetail('threshold', '1');
  await explore.recall(Q);
  await expect(explore.deepNote).toHaveAttribute('data-status', 'shadow');
  expect(await shown()).toEqual(first);

  // a 1 ms time limit: the first results, marked (escalation 2)
  await explore.setDeepSearch('active');
  await explore.setDeepDetail('timeoutMs', '1');
  await explore.recall(Q);
  await expect(explore.deepNote).toHaveAttribute('data-status', 'timeout');
  await expect(explore.deepNote).toContainText('ran out of time, so these are your first results');
  expect(await shown()).toEqual(first);

  // on, its reading counting fully: it adds a memory the first search left out, ringed in the graph with how (escalation 3)
  await explore.setDeepDetail('timeoutMs', '');
  await explore.setDeepDetail('weight', '1');
  await expectAccessible(page, "deeper search's options", { include: '[data-testid="recall-deep-options"]' });
  await explore.recall(Q);
  await expect(explore.deepNote).toHaveAttribute('data-status', 'merged');
  await expect(explore.deepNote).toContainText('and added 1');
  await expect(explore.deepNodes).toHaveCount(1);
  await expect(explore.deepNodes).toHaveAccessibleName(/found by deeper search: (said near a memory you found|shares a name with a memory you found|in the same group)/);
  const found = explore.results.filter({ has: page.getByTestId('explore-result-found') });
  await expect(found).toHaveCount(1);
  await expect(found.getByTestId('explore-result-found')).toContainText('Found by deeper search:');
  expect(first[0]).not.toContain(await found.getAttribute('data-memory-id'));
  await page.getByTestId('graph-key').locator('> summary').click();
  await expect(page.getByTestId('graph-key-found')).toBeVisible();
  await expectAccessible(page, 'the results card with deeper search', { include: '.explore__results' });
  await expectAccessible(page, 'the graph key', { include: '[data-testid="graph-key"]' });
  await page.screenshot({ path: `${SHOTS}/explore-light.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `${SHOTS}/explore-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });

  // the language model on this computer reads deeper searches (escalation 4): a local server
  // speaking the chat API scores the pool's later notes higher (the earlier ones are the first
  // results), each with a reason naming its first words; the memory it adds says the reason
  const model = createServer((req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Access-Control-Allow-Headers', 'content-type, authorization');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const prompt = (JSON.parse(body) as { messages: { content: string }[] }).messages[1].content;
      const notes = [...prompt.matchAll(/^\[(\d+)\] (.*)$/gm)];
      const ranking = notes.map(([, n, text]) => ({ n: Number(n), score: Number(n) / notes.length, reason: `it mentions "${text.split(' ').slice(0, 3).join(' ')}"` }));
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { content: JSON.stringify(ranking) } }] }));
    });
  });
  await new Promise<void>((r) => model.listen(0, '127.0.0.1', r));
  try {
    await explore.openSettings();
    await explore.saveLanguageModel(`http://127.0.0.1:${(model.address() as AddressInfo).port}/v1`, 'tiny', true);
    await expect(explore.languageModel.getByRole('status')).toContainText('and it reads deeper searches');
    await explore.languageModel.screenshot({ path: `${SHOTS}/model-reader-settings.png` });
    const t0 = Date.now();
    await page.getByTestId('settings-close').click();
    await explore.recall(Q);
    await expect(explore.deepNote).toHaveAttribute('data-status', 'merged');
    await expect(explore.deepNote).toContainText('with the language model on this computer');
    const read = explore.results.filter({ has: page.getByTestId('explore-result-found') }).first();
    await expect(read.getByTestId('explore-result-found')).toContainText(/the language model on this computer: it mentions ".+"/);
    console.log(`[deep-recall] the model's escalation, recall to its reason shown: ${Date.now() - t0} ms`);
    await page.screenshot({ path: `${SHOTS}/model-reader-light.png` });
  } finally {
    await new Promise<void>((r) => model.close(() => r()));
  }

  // escalation 5 runs (the model's server is gone: deeper search reads without it); the sixth in
  // this session is held back, in plain words, with the first results
  await explore.recall(Q);
  await expect(explore.deepNote).toHaveAttribute('data-status', 'merged');
  await expect(explore.deepNote).not.toContainText('language model');
  await explore.recall(Q);
  await expect(explore.deepNote).toHaveAttribute('data-status', 'rate-limited');
  await expect(explore.deepNote).toContainText('Deeper search has reached its limit for this session');
  expect(await explore.resultIds()).toEqual(first[0]);

  // the dashboard, from the log: five runs, one held back
  const summary = await explore.openDashboard();
  await expect(summary).toContainText('deeper search ran 5 times');
  await expect(summary).toContainText('held back 1 time by the limit per session');
  await expect(page.getByTestId('deep-dash-chart')).toBeVisible();
  await expectAccessible(page, 'the deeper search dashboard', { include: '[data-testid="deep-dash-section"]' });
  await page.getByTestId('deep-dash-section').screenshot({ path: `${SHOTS}/dashboard-light.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.getByTestId('deep-dash-section').screenshot({ path: `${SHOTS}/dashboard-dark.png` });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('deep-dash-chart').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/dashboard-phone.png` });
  await page.getByTestId('settings-close').click();
  await page.setViewportSize({ width: 1280, height: 900 });

  // keep looking until it's good enough (deeper search off; the threshold of 1 makes every recall hard)
  await explore.setDeepSearch('off');
  await explore.setKeepLooking(true);
  await explore.recall(Q);
  await expect(explore.iterativeNote).toContainText(/Kept looking|Nothing good enough/);
  await expect(explore.iterativeNote.getByTestId('deep-note-passes')).toContainText(/pass 2: (reformulated as ".+"|widened by one hop over shared names), added \d+/);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByTestId('deep-note').scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/explore-phone.png` });
});

test('the settings refuse a language model on another machine, saying why, and accept this computer', async ({ page }) => {
  const explore = new DeepRecallPage(page);
  await explore.open();
  await explore.openSettings();
  await explore.saveLanguageModel('http://192.168.1.20:11434/v1', 'llama3.2');
  await expect(explore.languageModel.getByRole('alert')).toContainText('"192.168.1.20" is another machine, and your memories would leave this device');
  await explore.saveLanguageModel('http://localhost:11434/v1', 'llama3.2');
  await expect(explore.languageModel.getByRole('status')).toHaveText('Recall can now ask llama3.2 at http://localhost:11434/v1.');
  await expect(explore.languageModel.getByRole('alert')).toHaveCount(0);
  await explore.languageModel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/shots-deep/settings-light.png' });
});

test('the Content-Security-Policy lets the page reach loopback model servers and the model hub, no other origin', async ({ request }) => {
  const csp = (await request.get('/')).headers()['content-security-policy'] ?? '';
  const connect = csp.split(';').map((d) => d.trim()).find((d) => d.startsWith('connect-src')) ?? '';
  expect(connect.split(/\s+/).slice(1).sort()).toEqual(
    // the hub: the opt-in model download of the model manager (issue 8, src/embed/model-hub-csp.test.ts)
    ["'self'", 'http://127.0.0.1:*', 'http://localhost:*', 'https://127.0.0.1:*', 'https://localhost:*', 'https://huggingface.co', 'https://*.huggingface.co', 'https://*.hf.co'].sort(),
  );
});
