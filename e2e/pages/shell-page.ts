// Page model of the app shell: header (and its phone menu), command palette, shortcuts, Settings,
// the first-run guide, the sample card and screenshots. Role / testid locators; waits on state.
import { expect, type Locator, type Page } from '@playwright/test';

export const DESKTOP = { width: 1280, height: 800 } as const;
export const PHONE = { width: 390, height: 844 } as const;
export type Size = 'desktop' | 'phone';

export class ShellPage {
  readonly header: Locator;
  readonly menuToggle: Locator;
  readonly palette: Locator;
  readonly paletteInput: Locator;
  readonly paletteOptions: Locator;
  readonly shortcuts: Locator;
  readonly settings: Locator;
  readonly guide: Locator;
  readonly sample: Locator;
  readonly memoryCount: Locator;
  readonly search: Locator;
  readonly toasts: Locator;

  constructor(readonly page: Page) {
    this.header = page.getByRole('banner');
    this.menuToggle = page.getByTestId('menu-toggle');
    this.palette = page.getByRole('dialog', { name: 'Command palette' });
    this.paletteInput = page.getByRole('combobox', { name: 'Type an action' });
    this.paletteOptions = page.getByRole('listbox', { name: 'Actions' }).getByRole('option');
    this.shortcuts = page.getByTestId('shortcuts-dialog');
    this.settings = page.getByTestId('settings-dialog');
    this.guide = page.getByTestId('first-run-guide');
    this.sample = page.getByTestId('sample-loader').first();
    this.memoryCount = page.getByTestId('memory-count');
    this.search = page.getByRole('searchbox', { name: 'Search memories' });
    this.toasts = page.getByTestId('toast');
  }

  async open(size: Size = 'desktop'): Promise<void> {
    await this.page.setViewportSize(size === 'phone' ? PHONE : DESKTOP);
    await this.page.goto('/');
    await this.waitReady();
  }

  async waitReady(): Promise<void> {
    await expect(this.page.getByTestId('model-status')).toHaveAttribute('data-phase', 'ready', { timeout: 90_000 });
    await expect(this.memoryCount).toHaveText(/^\d+$/);
  }

  async resize(size: Size): Promise<void> {
    await this.page.setViewportSize(size === 'phone' ? PHONE : DESKTOP);
  }

  /** A header button (views, settings, palette): on a phone it sits in the folded menu. */
  async headerButton(testId: string): Promise<Locator> {
    const b = this.page.getByTestId(testId);
    if (!(await b.isVisible())) {
      await this.menuToggle.click();
      await expect(b).toBeVisible();
    }
    return b;
  }

  async goTo(view: 'memories' | 'graph' | 'data'): Promise<void> {
    await (await this.headerButton(`nav-${view}`)).click();
    await expect(this.page.getByTestId(`nav-${view}`)).toHaveAttribute('aria-current', 'page');
  }

  /** Unfolds the first-run guide's steps (folded once memories exist). */
  async unfoldGuide(): Promise<void> {
    const toggle = this.guide.getByRole('button', { name: 'Show the steps' });
    await toggle.click();
    await expect(this.guide.getByRole('button', { name: 'Hide the steps' })).toHaveAttribute('aria-expanded', 'true');
  }

  async openSettings(): Promise<void> {
    await (await this.headerButton('open-settings')).click();
    await expect(this.settings).toBeVisible();
  }

  async closeSettings(): Promise<void> {
    await this.settings.getByTestId('settings-close').click();
    await expect(this.settings).toBeHidden();
  }

  async openPalette(): Promise<void> {
    await this.page.keyboard.press('ControlOrMeta+k');
    await expect(this.palette).toBeVisible();
    await expect(this.paletteInput).toBeFocused();
  }

  /** Runs an action through the palette by typing its name and pressing Enter. */
  async run(name: string): Promise<void> {
    await this.openPalette();
    await this.paletteInput.fill(name);
    await expect(this.paletteOptions.first()).toHaveAttribute('aria-selected', 'true');
    await this.page.keyboard.press('Enter');
    await expect(this.palette).toBeHidden();
  }

  /** The live count once it shows a number. */
  async count(): Promise<number> {
    let n = Number.NaN;
    await expect.poll(async () => (n = Number(await this.memoryCount.textContent()))).not.toBeNaN();
    return n;
  }

  /** A screenshot in e2e/screenshots/ (git-ignored, made by every run). */
  async shot(name: string, size: Size, scheme: 'light' | 'dark'): Promise<void> {
    await this.page.emulateMedia({ colorScheme: scheme });
    await expect(this.page.locator('html')).toHaveAttribute('data-theme', scheme);
    await this.page.screenshot({ path: `e2e/screenshots/shell-${name}-${size}-${scheme}.png` });
  }

  /** Screenshots at the current size in both schemes, back to light. */
  async shots(name: string, size: Size): Promise<void> {
    await this.shot(name, size, 'light');
    await this.shot(name, size, 'dark');
    await this.page.emulateMedia({ colorScheme: 'light' });
    await expect(this.page.locator('html')).toHaveAttribute('data-theme', 'light');
  }
}
