// Page model for addresses (issue 12, point 13): the hash the app shows, Back / Forward, and
// direct visits. Waits follow the app's state (the model phase, the graph's heading), never a clock.
import { expect, type Page } from '@playwright/test';
import { AppPage } from './app-page';
import { ExplorePage } from './explore-page';

export class RoutesPage {
  readonly app: AppPage;
  readonly explore: ExplorePage;

  constructor(readonly page: Page) {
    this.app = new AppPage(page);
    this.explore = new ExplorePage(page);
  }

  /** The location hash, decoded the way the app reads it. */
  hash(): string {
    return new URL(this.page.url()).hash;
  }

  async expectHash(re: RegExp): Promise<void> {
    await expect.poll(() => this.hash(), { message: 'the address' }).toMatch(re);
  }

  /** Opens an address of the app directly (a reload, a pasted link) and waits for the encoder. */
  async visit(hash: string): Promise<void> {
    await this.page.goto(`/${hash}`);
    await expect(this.app.modelStatus).toHaveAttribute('data-phase', 'ready', { timeout: 90_000 });
  }

  async tab(view: 'memories' | 'graph' | 'data'): Promise<void> {
    await this.page.getByTestId(`nav-${view}`).click();
    await expect(this.page.getByTestId(`nav-${view}`)).toHaveAttribute('aria-current', 'page');
  }

  async expectView(view: 'memories' | 'graph' | 'data'): Promise<void> {
    await expect(this.page.getByTestId(`nav-${view}`)).toHaveAttribute('aria-current', 'page');
  }

  /** The graph heading of a recall that has finished (results drawn). */
  async expectRecallOf(text: string): Promise<void> {
    await expect(this.page.getByRole('heading', { name: `Graph for “${text}”` })).toBeVisible({ timeout: 60_000 });
    await expect(this.explore.graph).toHaveAttribute('data-ready', 'true');
    await expect(this.explore.results.first()).toBeVisible();
  }
}
