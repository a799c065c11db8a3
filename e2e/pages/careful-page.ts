// Page model of careful ranking (issue 8): its Settings row (switch, progress in words) and the
// recalled answer's order and careful-ranking line. Role / test id locators only; waits on state.
import { expect, type Locator, type Page } from '@playwright/test';
import { ShellPage } from './shell-page';

export class CarefulPage {
  readonly shell: ShellPage;
  readonly status: Locator;
  readonly toggle: Locator;
  readonly view: Locator;
  readonly results: Locator;

  constructor(readonly page: Page) {
    this.shell = new ShellPage(page);
    this.status = page.getByTestId('settings-careful-status');
    this.toggle = page.getByRole('switch', { name: 'Careful ranking' });
    this.view = page.getByTestId('graph-view');
    this.results = page.getByTestId('explore-result');
  }

  /** Opens Settings and waits until careful ranking has read all `n` memories (the background fill done). */
  async waitAllRead(n: number, timeout = 240_000): Promise<void> {
    await this.shell.openSettings();
    await expect(this.status).toHaveText(`Careful ranking has read ${n} of ${n} memories.`, { timeout });
    await this.shell.closeSettings();
  }

  /** Turns careful ranking on or off in Settings. */
  async set(on: boolean): Promise<void> {
    await this.shell.openSettings();
    if ((await this.toggle.isChecked()) !== on) await this.toggle.click();
    await expect(this.toggle).toBeChecked({ checked: on });
    await this.shell.closeSettings();
  }

  /** The answer's careful-ranking state: 'applied', 'reading', or null (none). */
  async careful(): Promise<string | null> {
    return this.view.getAttribute('data-recall-careful');
  }

  /** The score the graph's node of `text` shows (its accessible name: "Standard memory: <text>, score 0.47"). */
  async scoreOf(text: string): Promise<number> {
    const name = await this.page.getByRole('button', { name: `Standard memory: ${text}, score`, exact: false }).first().getAttribute('aria-label');
    const m = /score (\d+\.\d+)$/.exec(name ?? '');
    if (!m) throw new Error(`no score in the node of "${text}": ${name}`);
    return Number(m[1]);
  }

  /** 0-based place of the result holding `text` in the final (refined) answer. */
  async rankOf(text: string): Promise<number> {
    const all = await this.results.allInnerTexts();
    return all.findIndex((t) => t.includes(text));
  }
}
