// Page model of the main screen: role / testid locators only, waits on visible state.
import { expect, type Locator, type Page } from '@playwright/test';

export class AppPage {
  readonly text: Locator;
  readonly tags: Locator;
  readonly source: Locator;
  readonly save: Locator;
  readonly captureError: Locator;
  readonly truncationNote: Locator;
  readonly search: Locator;
  readonly results: Locator;
  readonly memoryCount: Locator;
  readonly memoryItems: Locator;
  readonly modelStatus: Locator;
  readonly schemaBanner: Locator;

  constructor(readonly page: Page) {
    this.text = page.getByTestId('capture-text');
    this.tags = page.getByTestId('capture-tags');
    this.source = page.getByTestId('capture-source');
    this.save = page.getByRole('button', { name: 'Save memory' });
    this.captureError = page.getByTestId('capture-error');
    this.truncationNote = page.getByTestId('truncation-note');
    this.search = page.getByRole('searchbox', { name: 'Search memories' });
    this.results = page.getByTestId('search-result');
    this.memoryCount = page.getByTestId('memory-count');
    this.memoryItems = page.getByTestId('memory-item');
    this.modelStatus = page.getByTestId('model-status');
    this.schemaBanner = page.getByTestId('schema-outdated-banner');
  }

  async goto(): Promise<void> {
    await this.page.goto('/');
  }

  /** Database open and the encoder loaded (its status reads "Model ready"). */
  async waitReady(timeout = 90_000): Promise<void> {
    await expect(this.modelStatus).toHaveAttribute('data-phase', 'ready', { timeout });
    await expect(this.memoryCount).toHaveText(/^[\d,]+$/); // "10,001": thousands are grouped
  }

  /** Waits until the service worker controls the page and has precached everything (model shards
   * included): from then on the app works offline. */
  async waitOfflineReady(): Promise<void> {
    await this.page.waitForFunction(() => navigator.serviceWorker?.controller != null, undefined, { timeout: 90_000 });
    await expect(this.page.getByTestId('offline-ready')).toBeVisible({ timeout: 90_000 });
  }

  /**
   * The database open and search usable by keywords; the meaning model may still be loading. For
   * steps that do not need meaning (reading the list, a reload's persistence, validation): no
   * wait for the encoder, which costs seconds per page load.
   */
  async waitKeywordsReady(): Promise<void> {
    await expect(this.memoryCount).toHaveText(/^[\d,]+$/, { timeout: 90_000 });
    await expect(this.search).toBeEnabled();
  }

  /** The encoder badge beside the model status (its short plain name; the full one in its title). */
  encoderBadge(): Locator {
    return this.page.getByTestId('model-encoder');
  }

  /** The live count once it shows a number (it is briefly empty while its query re-runs). */
  async count(): Promise<number> {
    let n = Number.NaN;
    await expect.poll(async () => (n = Number((await this.memoryCount.textContent())?.replace(/,/g, ''))), { message: 'the memory count shows a number' }).not.toBeNaN();
    return n;
  }

  async addMemory(text: string, opts: { tags?: string } = {}): Promise<void> {
    await this.text.fill(text);
    if (opts.tags !== undefined) await this.tags.fill(opts.tags);
    await this.save.click();
  }

  /** Adds a memory and waits until the live count shows it. */
  async addAndWait(text: string, opts: { tags?: string } = {}): Promise<void> {
    const before = await this.count();
    await this.addMemory(text, opts);
    await expect(this.memoryCount).toHaveText(String(before + 1), { timeout: 60_000 });
    // the list counts the memory once it is written; the form empties only when the save has
    // finished (after the divergence check): typing the next one before that would be wiped
    await expect(this.text).toHaveValue('', { timeout: 60_000 });
  }

  async searchFor(q: string): Promise<void> {
    await this.search.fill(q);
  }

  resultWith(text: string | RegExp): Locator {
    return this.results.filter({ hasText: text });
  }
}
