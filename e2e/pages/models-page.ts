// Page model of the "Search model" view (the model manager): role / testid locators only, waits
// on the app's state.
import { expect, type Locator, type Page } from '@playwright/test';

export class ModelsPage {
  readonly nav: Locator;
  readonly view: Locator;
  readonly items: Locator;
  readonly active: Locator;
  readonly switchStatus: Locator;
  readonly switchDone: Locator;
  readonly switchTotal: Locator;
  readonly pause: Locator;
  readonly resume: Locator;
  readonly cancel: Locator;
  readonly folderInput: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByTestId('nav-models');
    this.view = page.getByTestId('models-view');
    this.items = page.getByTestId('model-item');
    this.active = page.getByTestId('model-active');
    this.switchStatus = page.getByTestId('switch-status');
    this.switchDone = page.getByTestId('switch-done');
    this.switchTotal = page.getByTestId('switch-total');
    this.pause = page.getByRole('button', { name: 'Pause' });
    this.resume = page.getByRole('button', { name: 'Resume' });
    this.cancel = page.getByTestId('switch-cancel');
    this.folderInput = page.getByTestId('model-folder-input');
  }

  async open(): Promise<void> {
    await this.nav.click();
    await expect(this.view).toBeVisible();
    await expect(this.items.first()).toBeVisible();
  }

  /** After a reload on this view's address: the encoder loaded and the list shown. */
  async waitReloaded(): Promise<void> {
    await expect(this.page.getByTestId('model-status')).toHaveAttribute('data-phase', 'ready', { timeout: 90_000 });
    await expect(this.view).toBeVisible();
    await expect(this.items.first()).toBeVisible();
  }

  item(id: string): Locator {
    return this.page.locator(`[data-testid="model-item"][data-model-id="${id}"]`);
  }

  /** Clicks Download on a model; resolves once its progress shows (the download runs on). */
  async startDownload(id: string): Promise<void> {
    await this.item(id).getByTestId('model-download').click();
  }

  async waitDownloaded(id: string, timeout = 120_000): Promise<void> {
    await expect(this.item(id).getByTestId('model-download-done')).toBeVisible({ timeout });
    await expect(this.item(id)).toHaveAttribute('data-state', 'available');
  }

  /** Starts a switch to a model that is on this device. */
  async use(id: string): Promise<void> {
    await this.item(id).getByRole('button', { name: 'Use this model' }).click();
    await expect(this.switchStatus.or(this.active.and(this.page.locator(`[data-model-id="${id}"]`)))).toBeVisible();
  }

  /** Memories prepared so far for the new model (the switch panel's count). */
  async done(): Promise<number> {
    let n = Number.NaN;
    await expect.poll(async () => (n = Number(await this.switchDone.textContent()))).not.toBeNaN();
    return n;
  }

  /** Waits until the switch has finished and `id` is the model in use. */
  async waitActive(id: string, timeout = 300_000): Promise<void> {
    await expect(this.active).toHaveAttribute('data-model-id', id, { timeout });
    await expect(this.switchStatus).toHaveCount(0);
  }
}
