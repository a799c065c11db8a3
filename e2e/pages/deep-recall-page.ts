// Page model for issue 11's deeper search: the recall drawer's Deeper search options and the
// settings' language model section. Builds on ExplorePage; role / testid locators only.
import { expect, type Locator, type Page } from '@playwright/test';
import { ExplorePage } from './explore-page';

export class DeepRecallPage extends ExplorePage {
  readonly languageModel: Locator;

  constructor(page: Page) {
    super(page);
    this.languageModel = page.getByTestId('language-model-settings');
  }

  /** Switches to the Explore view of the page already open (no reload: the encoder stays loaded). */
  async switchToExplore(): Promise<void> {
    await this.page.getByTestId('nav-graph').click();
    await expect(this.query).toBeVisible();
  }

  private async advanced(): Promise<void> {
    if (!(await this.options.evaluate((d) => (d as HTMLDetailsElement).open))) await this.page.getByTestId('explore-options-toggle').click();
    const deep = this.options.getByTestId('recall-deep-options');
    if (!(await deep.isVisible())) await this.options.getByText('Advanced options', { exact: true }).click();
    await expect(deep).toBeVisible();
  }

  /** Sets the number of results (the Advanced options' topK field, committed with Enter). */
  async setTopK(k: number): Promise<void> {
    await this.advanced();
    const field = this.options.getByTestId('recall-option-topK');
    await field.fill(String(k));
    await field.press('Enter');
    await expect(field).toHaveValue(String(k));
  }

  /** "Also bring in memories about the same people, places and things" (expandHops 1). */
  async setEntityExpansion(on: boolean): Promise<void> {
    await this.advanced();
    await this.options.getByTestId('recall-option-expandHops').setChecked(on);
  }

  /** "Deeper search when unsure": off, watch only (shadow), on (active), on and learning (adaptive). */
  async setDeepSearch(mode: 'off' | 'shadow' | 'active' | 'adaptive'): Promise<void> {
    await this.advanced();
    await this.options.getByTestId('recall-option-deepSearch').selectOption(mode);
  }

  /** One of deeper search's expert fields (under its details), committed with Enter; '' = the default. */
  async setDeepDetail(name: 'threshold' | 'timeoutMs' | 'rateLimit' | 'weight', value: string): Promise<void> {
    await this.advanced();
    const details = this.options.getByTestId('recall-deep-search-details');
    if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await details.locator('> summary').click();
    const field = details.getByTestId(`recall-option-deepSearch-${name}`);
    await field.fill(value);
    await field.press('Enter');
    await expect(details.getByTestId(`recall-option-error-deepSearch-${name}`)).toHaveCount(0);
  }

  /** "Keep looking until it's good enough" (iterative search). */
  async setKeepLooking(on: boolean): Promise<void> {
    await this.advanced();
    await this.options.getByTestId('recall-option-iterative').setChecked(on);
  }

  /** The results card's note on deeper search (data-status: merged, shadow, timeout, rate-limited, error). */
  get deepNote(): Locator {
    return this.page.getByTestId('deep-note-search');
  }

  get iterativeNote(): Locator {
    return this.page.getByTestId('deep-note-iterative');
  }

  /** Graph nodes deeper search added (ringed), by their accessible names. */
  get deepNodes(): Locator {
    return this.page.locator('[data-testid^="graph-node-"][data-found="deep"]');
  }

  /** The memory ids of the results list, in order. */
  async resultIds(): Promise<string[]> {
    return this.results.evaluateAll((els) => els.map((e) => e.getAttribute('data-memory-id') ?? ''));
  }

  /** Settings, "How deeper search is doing" unfolded; resolves with its summary once loaded. */
  async openDashboard(): Promise<Locator> {
    await this.openSettings();
    const section = this.settingsDialog.getByTestId('deep-dash-section');
    await section.locator('> summary').click();
    const summary = section.getByTestId('deep-dash-summary');
    await expect(summary).toBeVisible();
    return summary;
  }

  async openSettings(): Promise<void> {
    await this.page.getByTestId('explore-settings').click();
    await expect(this.settingsDialog).toBeVisible();
  }

  /** Fills and saves the language model section (the settings dialog open; the section is under Advanced); `readsDeep` ticks "read deeper searches". */
  async saveLanguageModel(baseUrl: string, model: string, readsDeep = false): Promise<void> {
    if (!(await this.languageModel.isVisible())) await this.settingsDialog.getByTestId('settings-advanced').locator('> summary').click();
    await expect(this.languageModel).toBeVisible();
    await this.languageModel.getByRole('checkbox', { name: 'Use a language model running on this computer' }).check();
    await this.languageModel.getByLabel('Address').fill(baseUrl);
    await this.languageModel.getByLabel('Model name').fill(model);
    if (readsDeep) await this.languageModel.getByRole('checkbox', { name: 'Let the language model on this computer read deeper searches' }).check();
    await this.languageModel.getByTestId('language-model-save').click();
  }
}
