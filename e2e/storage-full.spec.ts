// A full device (issue: trust): the person is told in plain words, what they typed stays on the
// screen, and nothing already stored is lost. The quota is simulated in the page before load
// (e2e/fixtures/storage-full.ts); the offline copy's failure is a precache file the service worker
// cannot fetch. A real quota on capture is bad-input.spec.ts's; this covers the banner and toasts.
// Lean: one app load, one capture through the encoder, then the refused writes and a reload.
import { expect, test } from '@playwright/test';
import { KeepPage } from './pages/keep-page';
import { setStorageFull, simulateFullStorage } from './fixtures/storage-full';

test('storage full: a clear banner and messages, the typed text kept, nothing stored lost', async ({ page, context }) => {
  test.setTimeout(180_000);
  // the service worker's install copies the app for offline use; one file it cannot fetch fails
  // the install, as a refused write would (the page never loads USE-lite: MiniLM is the default)
  await context.route('**/models/use-lite/**', (route) => route.abort());
  await simulateFullStorage(page);
  const keep = new KeepPage(page);
  await keep.app.goto();
  await keep.app.waitReady();
  const banner = page.getByTestId('not-stored');
  await expect(banner).toContainText("couldn't be stored on this device: storage is full");
  await expect(banner).toContainText('offline, search works by keywords');

  const kept = 'The spare key is under the blue flower pot';
  await keep.app.addAndWait(kept, { tags: 'home' });
  await setStorageFull(page, true);

  // an edit refused: said next to the form, the edited text still in the box to try again
  await keep.open(kept);
  await keep.dialog.getByTestId('memory-edit').click();
  const text = keep.editor.getByRole('textbox', { name: 'Text', exact: true });
  await text.fill('The spare key is under the red flower pot');
  await keep.editor.getByRole('button', { name: 'Save changes' }).click();
  const editError = keep.editor.getByTestId('edit-error');
  await expect(editError).toHaveAttribute('data-code', 'QUOTA_EXCEEDED');
  await expect(editError).toContainText('Nothing was saved');
  await expect(text).toHaveValue('The spare key is under the red flower pot');
  await keep.editor.getByRole('button', { name: 'Cancel' }).click();

  // a move to the trash refused: an error toast that says why and what to do, and stays
  await keep.dialog.getByTestId('memory-delete').click();
  const toast = keep.toasts.and(page.getByRole('alert'));
  await expect(toast).toHaveAttribute('data-code', 'QUOTA_EXCEEDED');
  await expect(toast).toContainText('Nothing was saved');
  await expect(toast).toContainText('empty the trash'); // what a person can do about it
  await expect(keep.dialog).toBeVisible(); // still open: it was not deleted
  await keep.close();
  await expect(keep.row(kept)).toHaveCount(1);

  // room again: the reloaded app has exactly what was stored, unchanged
  await setStorageFull(page, false);
  await page.reload();
  await keep.app.waitKeywordsReady();
  await expect(keep.count).toHaveText('1');
  await keep.open(kept);
  await expect(keep.dialogText).toHaveText(kept);
  await keep.showHistory();
  await expect(keep.versions).toHaveCount(1);
});
