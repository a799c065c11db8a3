// Page model of the Explore view: role / testid locators only, waits on visible state.
import { expect, type Locator, type Page } from '@playwright/test';

export type Profile = 'BALANCED' | 'DIVERGENT' | 'DEBUGGING' | 'CRITICAL' | 'SYSTEMATIZER';
export type StatusMetric = 'enabled' | 'threshold' | 'samples' | 'lur' | 'lsr' | 'lhi';

export class ExplorePage {
  readonly view: Locator;
  readonly query: Locator;
  readonly tags: Locator;
  readonly recallButton: Locator;
  readonly options: Locator;
  readonly graph: Locator;
  readonly nodes: Locator;
  readonly results: Locator;
  readonly memoryPanel: Locator;
  readonly feedbackMessage: Locator;
  readonly lateralStatus: Locator;
  readonly divergence: Locator;
  readonly sampleLoader: Locator;
  readonly settingsDialog: Locator;

  constructor(readonly page: Page) {
    this.view = page.getByTestId('graph-view');
    this.query = page.getByRole('searchbox', { name: 'Recall query' });
    this.tags = page.getByTestId('explore-tags');
    this.recallButton = page.getByTestId('explore-run');
    this.options = page.getByTestId('explore-options');
    this.graph = page.getByTestId('recall-graph');
    this.nodes = page.locator('[data-testid^="graph-node-"]');
    this.results = page.getByTestId('explore-result');
    this.memoryPanel = page.getByTestId('memory-panel');
    this.feedbackMessage = page.getByTestId('memory-feedback-message');
    this.lateralStatus = page.getByTestId('lateral-status');
    this.divergence = page.getByTestId('divergence-alert');
    this.sampleLoader = page.getByTestId('sample-loader').first();
    this.settingsDialog = page.getByTestId('settings-dialog');
  }

  /** Opens the app, waits for the database and the encoder, and switches to the Explore view. */
  async open(): Promise<void> {
    await this.page.goto('/');
    await expect(this.page.getByTestId('model-status')).toHaveAttribute('data-phase', 'ready', { timeout: 90_000 });
    await this.page.getByTestId('nav-graph').click();
    await expect(this.query).toBeVisible();
  }

  /** One click on the sample card; resolves when every memory is embedded and stored. */
  async loadSample(timeout = 420_000): Promise<number> {
    await this.sampleLoader.getByTestId('sample-load').click();
    const done = this.sampleLoader.getByTestId('sample-done');
    await expect(done).toBeVisible({ timeout });
    const m = /(\d+) memories/.exec((await done.textContent()) ?? '');
    return m ? Number(m[1]) : 0;
  }

  async setProfile(profile: Profile, assocHops?: 0 | 1 | 2 | 3): Promise<void> {
    if (!(await this.options.evaluate((d) => (d as HTMLDetailsElement).open))) await this.page.getByTestId('explore-options-toggle').click();
    await this.options.getByTestId('recall-profile').selectOption(profile);
    if (assocHops !== undefined) {
      const adv = this.options.getByTestId('recall-option-assocHops');
      if (!(await adv.isVisible())) await this.options.getByText('Advanced options', { exact: true }).click();
      await adv.selectOption(String(assocHops));
    }
    await expect(this.page.getByTestId('explore-profile')).toHaveText(profile);
  }

  /** Types a value into an advanced recall option (e.g. minCosine) and leaves the field, which commits it. */
  async setOption(name: string, value: string): Promise<void> {
    if (!(await this.options.evaluate((d) => (d as HTMLDetailsElement).open))) await this.page.getByTestId('explore-options-toggle').click();
    const field = this.options.getByTestId(`recall-option-${name}`);
    if (!(await field.isVisible())) await this.options.getByText('Advanced options', { exact: true }).click();
    await field.fill(value);
    await field.blur();
    await expect(this.options.getByTestId(`recall-option-error-${name}`)).toHaveCount(0);
  }

  /** Runs a recall and waits for its results (list and, unless `graph: false`, the drawn graph). */
  async recall(text: string, tags = '', opts: { graph?: boolean } = {}): Promise<void> {
    await this.query.fill(text);
    await this.tags.fill(tags);
    await this.recallButton.click();
    // This recall finished (the same query's heading may still be up from an earlier one).
    await expect(this.recallButton).toHaveText('Recall', { timeout: 60_000 });
    // and its late-interaction refinement (MiniLM), if one runs: the final answer is the one asserted
    await expect(this.page.getByTestId('graph-view')).not.toHaveAttribute('data-recall-refining', 'true', { timeout: 60_000 });
    await expect(this.page.getByRole('heading', { name: `Graph for “${text}”` })).toBeVisible({ timeout: 60_000 });
    if (opts.graph !== false) await expect(this.graph).toHaveAttribute('data-ready', 'true');
  }

  nodesOfKind(kind: string): Locator {
    return this.page.locator(`[data-testid^="graph-node-"][data-kind="${kind}"]`);
  }

  nodesAtHop(hop: number, kind?: string): Locator {
    return this.page.locator(`[data-testid^="graph-node-"][data-hop="${hop}"]${kind ? `[data-kind="${kind}"]` : ''}`);
  }

  /**
   * Presses Tab from the query node until the focused proxy is the `nth` (0-based) node of `kind`
   * (at most `max` presses). Returns its testid.
   */
  async tabToNode(kind: string, nth = 0, max = 80): Promise<string> {
    await this.page.getByTestId('graph-node-query').focus();
    let seen = 0;
    for (let i = 0; i < max; i++) {
      await this.page.keyboard.press('Tab');
      const hit = await this.page.evaluate((k) => {
        const el = document.activeElement as HTMLElement | null;
        return el?.dataset.kind === k ? (el.dataset.testid ?? '') : null;
      }, kind);
      if (hit && seen++ === nth) return hit;
    }
    throw new Error(`no ${kind} node #${nth} reached by Tab`);
  }

  /** The numeric value of a lateral status metric (e.g. LUR). */
  async metric(name: StatusMetric): Promise<number> {
    const t = (await this.page.getByTestId(`lateral-status-${name}-value`).textContent()) ?? '';
    const m = /-?\d+(\.\d+)?/.exec(t.replace(',', ''));
    return m ? Number(m[0]) : Number.NaN;
  }

  spaceRow(space: string): Locator {
    return this.memoryPanel.getByTestId(`space-row-${space}`);
  }

  // ---- issue 12: chains, graph controls, hidden memories -----------------------------------

  /** The visible "Show chains of related memories" switch. */
  get chainsSwitch(): Locator {
    return this.page.getByRole('switch', { name: 'Show chains of related memories' });
  }

  /** Turns chains on or off; with a recall on screen it runs again: waits for it. */
  async setChains(on: boolean, rerunOf?: string): Promise<void> {
    if ((await this.chainsSwitch.isChecked()) === on) return;
    await this.chainsSwitch.click();
    await expect(this.chainsSwitch).toBeChecked({ checked: on });
    if (rerunOf !== undefined) {
      await expect(this.recallButton).toHaveText('Recall', { timeout: 60_000 });
      await expect(this.page.getByRole('heading', { name: `Graph for “${rerunOf}”` })).toBeVisible({ timeout: 60_000 });
      await expect(this.graph).toHaveAttribute('data-ready', 'true');
    }
  }

  /** The graph's control buttons by their accessible names. */
  graphButton(name: 'Zoom in' | 'Zoom out' | 'Fit to view' | 'Reset the layout'): Locator {
    return this.graph.getByRole('button', { name, exact: true });
  }

  get canvas(): Locator {
    return this.graph.locator('canvas');
  }

  /** What the last drawn frame showed (data attributes the canvas carries after each draw). */
  async frame(): Promise<{ nodes: number; inside: number; labels: number; importantInside: number; importantLabelled: number; zoom: number }> {
    return this.canvas.evaluate((c) => {
      const d = (c as HTMLCanvasElement).dataset;
      return {
        nodes: Number(d.nodes),
        inside: Number(d.nodesInside),
        labels: Number(d.labels),
        importantInside: Number(d.importantInside),
        importantLabelled: Number(d.importantLabelled),
        zoom: Number(d.zoom),
      };
    });
  }

  /** Waits until the drawn frame has every node inside the canvas (the view was fitted). */
  async expectAllInView(): Promise<void> {
    await expect.poll(async () => {
      const f = await this.frame();
      return f.nodes > 0 && f.inside === f.nodes;
    }, { message: 'every node of the graph is inside the canvas' }).toBe(true);
  }

  get hiddenCard(): Locator {
    return this.page.getByTestId('explore-hidden');
  }

  get hiddenItems(): Locator {
    return this.page.getByTestId('explore-hidden-item');
  }
}
