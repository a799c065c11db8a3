// Issue 11 (seed 001) in the real app: a recall with expandHops 1 shows the shared name as an
// entity node with the memory it brought in; the settings refuse a language model on another
// machine; the CSP lets the page reach loopback model servers and nothing else.
import { expect, test } from '@playwright/test';
import { AppPage } from './pages/app-page';
import { DeepRecallPage } from './pages/deep-recall-page';

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
    ["'self'", 'http://127.0.0.1:*', 'http://[::1]:*', 'http://localhost:*', 'https://127.0.0.1:*', 'https://[::1]:*', 'https://localhost:*', 'https://huggingface.co', 'https://*.huggingface.co', 'https://*.hf.co'].sort(),
  );
});
