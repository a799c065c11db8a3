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

  async openSettings(): Promise<void> {
    await this.page.getByTestId('explore-settings').click();
    await expect(this.settingsDialog).toBeVisible();
  }

  /** Fills and saves the language model section (the settings dialog open; the section is under Advanced). */
  async saveLanguageModel(baseUrl: string, model: string): Promise<void> {
    if (!(await this.languageModel.isVisible())) await this.settingsDialog.getByTestId('settings-advanced').locator('> summary').click();
    await expect(this.languageModel).toBeVisible();
    await this.languageModel.getByRole('checkbox', { name: 'Use a language model running on this computer' }).check();
    await this.languageModel.getByLabel('Address').fill(baseUrl);
    await this.languageModel.getByLabel('Model name').fill(model);
    await this.languageModel.getByTestId('language-model-save').click();
  }
}
