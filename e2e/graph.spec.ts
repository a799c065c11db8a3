// The recall graph in the graph lab: canvas renders, keyboard proxies mirror the nodes, Tab /
// Enter / Escape work, pointer hover and click work, and light / dark screenshots are saved.
import { expect, test, type Locator, type Page } from '@playwright/test';

class GraphLabPage {
  readonly graph: Locator;
  readonly canvas: Locator;
  readonly proxies: Locator;
  readonly search: Locator;
  readonly status: Locator;
  readonly count: Locator;

  constructor(readonly page: Page) {
    this.graph = page.getByTestId('recall-graph');
    this.canvas = this.graph.locator('canvas');
    this.proxies = this.graph.getByRole('listitem').getByRole('button');
    this.search = page.getByRole('searchbox', { name: 'Search memories' });
    this.status = page.getByTestId('graph-lab-status');
    this.count = page.getByTestId('graph-lab-count');
  }

  async open(n: number, extra = ''): Promise<void> {
    await this.page.goto(`/graph-lab.html?n=${n}${extra}`);
    await expect(this.graph).toHaveAttribute('data-ready', 'true');
    await this.page.waitForFunction(() => window.__graphBench?.layoutMs !== null);
  }

  node(id: string): Locator {
    return this.page.getByTestId(`graph-node-${id}`);
  }

  /** A node's position in page coordinates. */
  async pointOf(id: string): Promise<{ x: number; y: number }> {
    const box = (await this.canvas.boundingBox())!;
    const p = await this.page.evaluate((nodeId) => window.__graphBench.screenPosition(nodeId), id);
    expect(p, `node ${id} has a position`).not.toBeNull();
    return { x: box.x + p!.x, y: box.y + p!.y };
  }

  /** How many distinct colours the canvas shows (a blank canvas has one). */
  async paintedColours(): Promise<number> {
    return this.canvas.evaluate((el) => {
      const c = el as HTMLCanvasElement;
      const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < data.length && seen.size < 50; i += 4 * 97) seen.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      return seen.size;
    });
  }
}

test.use({ reducedMotion: 'reduce', viewport: { width: 1280, height: 800 } });

test('the canvas renders and one focusable proxy exists per node', async ({ page }) => {
  const lab = new GraphLabPage(page);
  await lab.open(60);
  await expect(lab.canvas).toBeVisible();
  expect(await lab.paintedColours()).toBeGreaterThan(5);
  await expect(lab.count).toHaveText('60');
  await expect(lab.proxies).toHaveCount(60);
  await expect(lab.node('query')).toHaveAttribute('data-kind', 'query');
  // Lateral proxies are announced as such, with their score.
  const lateral = lab.graph.locator('[data-kind="lateral"]').first();
  await expect(lateral).toHaveAttribute('aria-label', /^Lateral memory: .+, score \d\.\d\d$/);
  // Associative chains carry hop numbers 1..3.
  await expect(lab.graph.locator('[data-kind="associative"][data-hop="3"]').first()).toBeAttached();
});

test('Tab walks the nodes, Enter opens, Escape returns to the search box', async ({ page }) => {
  const lab = new GraphLabPage(page);
  await lab.open(60);
  await lab.search.focus();
  await page.keyboard.press('Tab');
  await expect(lab.node('query')).toBeFocused();
  await page.keyboard.press('Tab');
  const second = lab.proxies.nth(1);
  await expect(second).toBeFocused();
  const testId = (await second.getAttribute('data-testid'))!;
  const memoryId = testId.replace(/^graph-node-m:/, '');
  // The focused node is shown in a tooltip next to its highlighted shape.
  await expect(lab.graph.getByText('Click or press Enter to open')).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(lab.status).toHaveText(`opened ${memoryId}`);
  await page.keyboard.press('Escape');
  await expect(lab.search).toBeFocused();
});

test('hover shows a tooltip and a click on a node opens it', async ({ page }) => {
  const lab = new GraphLabPage(page);
  await lab.open(60);
  const target = lab.graph.locator('[data-kind="lateral"]').first();
  const id = (await target.getAttribute('data-testid'))!.replace(/^graph-node-/, '');
  const at = await lab.pointOf(id);
  await page.mouse.move(at.x, at.y);
  await expect(lab.graph.getByText('Lateral memory', { exact: false }).first()).toBeVisible();
  await page.mouse.click(at.x, at.y);
  await expect(lab.status).toHaveText(`opened ${id.replace(/^m:/, '')}`);
});

test('a node can be dragged, and dragging the background pans', async ({ page }) => {
  const lab = new GraphLabPage(page);
  await lab.open(60);
  const id = (await lab.graph.locator('[data-kind="standard"]').first().getAttribute('data-testid'))!.replace(/^graph-node-/, '');
  const from = await lab.pointOf(id);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 40, from.y + 30, { steps: 5 });
  await page.mouse.up();
  const to = await lab.pointOf(id);
  // the node follows the pointer, which lands on whole pixels: within a pixel of the move
  expect(Math.abs(to.x - from.x - 40)).toBeLessThanOrEqual(1);
  expect(Math.abs(to.y - from.y - 30)).toBeLessThanOrEqual(1);
  await expect(lab.status).not.toHaveText(/opened/); // a drag is not a click

  const box = (await lab.canvas.boundingBox())!;
  const query = await lab.pointOf('query');
  await page.mouse.move(box.x + 30, box.y + 30);
  await page.mouse.down();
  await page.mouse.move(box.x + 130, box.y + 80, { steps: 5 });
  await page.mouse.up();
  const moved = await lab.pointOf('query');
  expect(Math.abs(moved.x - query.x - 100)).toBeLessThanOrEqual(1);
  expect(Math.abs(moved.y - query.y - 50)).toBeLessThanOrEqual(1);
});

for (const scheme of ['light', 'dark'] as const) {
  test(`screenshot in the ${scheme} theme`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    const lab = new GraphLabPage(page);
    await lab.open(80);
    await expect(lab.graph).toHaveClass(new RegExp(`recall-graph--${scheme}`));
    await page.screenshot({ path: `e2e/screenshots/graph-lab-${scheme}.png` });
    // Focused node, highlighted with its neighbours.
    await lab.search.focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.screenshot({ path: `e2e/screenshots/graph-lab-${scheme}-focus.png` });
  });
}

test('2,000 nodes render with one proxy each', async ({ page }) => {
  const lab = new GraphLabPage(page);
  await lab.open(2000);
  await expect(lab.proxies).toHaveCount(2000);
  expect(await lab.paintedColours()).toBeGreaterThan(5);
  await page.screenshot({ path: 'e2e/screenshots/graph-lab-2000.png' });
});
