// Page model of the memory lists (Memories, Review, Trash), the opened memory, its editor and
// history: role / label / test id locators only, waits on the app's visible state.
import { expect, type Locator, type Page } from '@playwright/test';
import { textKey } from '../../src/core/text-key';
import { BLOCK_SIZE } from '../../src/db/feature-blocks';
import { AppPage } from './app-page';

export type KeepList = 'memories' | 'review' | 'trash';

export class KeepPage {
  readonly app: AppPage;
  readonly rows: Locator;
  readonly list: Locator;
  readonly count: Locator;
  readonly dialog: Locator;
  readonly dialogText: Locator;
  readonly editor: Locator;
  readonly history: Locator;
  readonly versions: Locator;
  readonly toasts: Locator;
  readonly bulk: Locator;
  readonly confirm: Locator;

  constructor(readonly page: Page) {
    this.app = new AppPage(page);
    this.rows = page.getByTestId('memory-item');
    this.list = page.getByTestId('memory-list');
    this.count = page.getByTestId('memory-count');
    this.dialog = page.getByTestId('memory-view');
    this.dialogText = page.getByTestId('memory-view-text');
    this.editor = page.getByTestId('memory-editor');
    this.history = page.getByTestId('memory-history');
    this.versions = page.getByTestId('history-version');
    this.toasts = page.getByTestId('toast');
    this.bulk = page.getByTestId('bulk-bar');
    this.confirm = page.getByTestId('confirm-dialog');
  }

  async show(list: KeepList): Promise<void> {
    if (!(await this.page.getByTestId(`keep-${list}`).isVisible())) {
      if (list === 'memories') await this.page.getByTestId('nav-memories').click();
      else {
        if (!(await this.page.getByTestId('keep-nav-memories').isVisible())) await this.page.getByTestId('nav-memories').click();
        await this.page.getByTestId(`keep-nav-${list}`).click();
      }
    }
    await expect(this.page.getByTestId(`keep-${list}`)).toBeVisible();
  }

  row(text: string | RegExp): Locator {
    return this.rows.filter({ hasText: text });
  }

  /** Opens the memory whose row shows `text` and waits for its full view. */
  async open(text: string | RegExp): Promise<void> {
    await this.row(text).getByTestId('memory-row-open').click();
    await expect(this.dialog).toBeVisible();
    await expect(this.dialogText).toBeVisible();
  }

  async close(): Promise<void> {
    await this.page.getByTestId('memory-close').click();
    await expect(this.dialog).toBeHidden();
  }

  /** Edits the open memory's text (and optionally more) and waits for the saved view. */
  async edit(fields: { text?: string; tags?: string; validFrom?: string; validTo?: string }): Promise<void> {
    await this.dialog.getByTestId('memory-edit').click();
    await expect(this.editor).toBeVisible();
    if (fields.text !== undefined) await this.editor.getByRole('textbox', { name: 'Text', exact: true }).fill(fields.text);
    if (fields.tags !== undefined) await this.editor.getByLabel('Tags').fill(fields.tags);
    if (fields.validFrom !== undefined) await this.editor.getByLabel('True from').fill(fields.validFrom);
    if (fields.validTo !== undefined) await this.editor.getByLabel('True until').fill(fields.validTo);
    await this.editor.getByRole('button', { name: 'Save changes' }).click();
    await expect(this.editor).toBeHidden({ timeout: 60_000 });
    if (fields.text !== undefined) await expect(this.dialogText).toContainText(fields.text.split('\n')[0]!);
  }

  async showHistory(): Promise<void> {
    await this.dialog.getByTestId('memory-history-toggle').click();
    await expect(this.history).toBeVisible();
  }

  /** The newest toast with `text`; its Undo button, when asked. */
  toast(text: string | RegExp): Locator {
    return this.toasts.filter({ hasText: text }).last();
  }

  async undo(text: string | RegExp): Promise<void> {
    await this.toast(text).getByRole('button', { name: 'Undo' }).click();
  }

  async select(text: string | RegExp): Promise<void> {
    await this.row(text).getByRole('checkbox').check();
  }

  /** The lists' links show whole, none of them scrolled out of their line. */
  async listLinksFit(): Promise<boolean> {
    return this.page.getByRole('navigation', { name: 'Memory lists' }).evaluate((n) => n.scrollWidth <= n.clientWidth);
  }

  /** How many lines the lists' links (All memories, Review unsure, Trash) take. */
  async listLinkRows(): Promise<number> {
    const tops = await this.page.getByRole('navigation', { name: 'Memory lists' }).getByRole('link').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
    return new Set(tops).size;
  }

  /** The number in the list's heading (Memories, Trash or Review), once it is a number. */
  async total(testId = 'memory-count'): Promise<number> {
    const el = this.page.getByTestId(testId);
    await expect(el).toHaveText(/^[\d,]+$/);
    return Number((await el.textContent())!.replace(/,/g, ''));
  }

  /** Answers a confirmation dialog, typing the words first when it asks for them. */
  async confirmWith(button: string, typed?: string): Promise<void> {
    await expect(this.confirm).toBeVisible();
    if (typed !== undefined) await this.confirm.getByTestId('confirm-input').fill(typed);
    await this.confirm.getByRole('button', { name: button }).click();
    await expect(this.confirm).toBeHidden();
  }

  /**
   * Writes `n` memories straight into the app's database, each a copy of the stored memory
   * `templateId` (its row and its features, written as schema v9's blocks: the features of one real capture, so nothing is
   * re-embedded) with its own id, text, tags and time; `sample` marks them as the sample
   * collection. Raw IndexedDB writes are not seen by the running page: reload afterwards.
   */
  async seedCopies(templateId: string, n: number, opts: { sample?: boolean; prefix?: string; tags?: string[] } = {}): Promise<void> {
    const prefix = opts.prefix ?? 'Seeded note';
    const tags = opts.tags ?? ['garden', 'work', 'music', 'travel', 'cooking'];
    const day = 86_400_000;
    const start = Date.UTC(2020, 0, 1);
    const items = Array.from({ length: n }, (_, i) => {
      const text = `${prefix} ${i + 1}: ${tags[i % tags.length]} plans for week ${i % 52}`;
      return { text, key: textKey(text), tags: [tags[i % tags.length]!], at: start + Math.floor((i * day) / 3) };
    });
    await this.page.evaluate(
      async ({ templateId, items, sample, blockSize }) => {
        const api = window.__mnemograph;
        if (!api) throw new Error('no test API');
        await api.ready;
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const r = indexedDB.open(api.dbName);
          r.onsuccess = () => resolve(r.result);
          r.onerror = () => reject(r.error);
        });
        const req = <T,>(r: IDBRequest<T>) =>
          new Promise<T>((resolve, reject) => {
            r.onsuccess = () => resolve(r.result);
            r.onerror = () => reject(r.error);
          });
        // schema v9: features live in blocks (src/db/feature-blocks.ts); the template's entry of
        // each (space, producer) is copied into new blocks of blockSize copies
        const read = db.transaction(['memories', 'featureHeads', 'featureData'], 'readonly');
        const template = (await req(read.objectStore('memories').get(templateId))) as Record<string, unknown>;
        type Head = { key: string; space: string; model: string; n: number; dim: number; ids: string[]; bytes: number };
        const heads = (await req(read.objectStore('featureHeads').index('ids').getAll(templateId))) as Head[];
        const lastN = new Map<string, number>();
        const entries: { head: Head; bytes: Uint8Array }[] = [];
        for (const h of heads) {
          const data = (await req(read.objectStore('featureData').get(h.key))) as { spans: ArrayBuffer; data: ArrayBuffer };
          const spans = new Uint32Array(data.spans);
          const at = h.ids.indexOf(templateId);
          entries.push({ head: h, bytes: new Uint8Array(data.data, spans[2 * at], spans[2 * at + 1]) });
          const keys = (await req(read.objectStore('featureHeads').index('[space+model]').getAllKeys(IDBKeyRange.only([h.space, h.model])))) as string[];
          lastN.set(`${h.space}|${h.model}`, keys.length ? Math.max(...keys.map((k) => Number(k.slice(k.lastIndexOf('|') + 1)))) : 0);
        }
        if (!template || entries.length === 0) throw new Error('template memory not found');
        const tx = db.transaction(['memories', 'featureHeads', 'featureData', 'lexicalLog'], 'readwrite');
        const mem = tx.objectStore('memories');
        // written behind Dexie's back: log them as the app's writes do (schema v11, src/db/lexical-snapshot.ts),
        // so the engine's next start does not trust a keyword snapshot taken before them
        tx.objectStore('lexicalLog').add({ id: '*' });
        const ids: string[] = [];
        items.forEach((it, i) => {
          const id = `0190${String(i).padStart(8, '0')}-seed-7000-8000-${crypto.randomUUID().slice(-12)}`;
          ids.push(id);
          const row: Record<string, unknown> = {
            ...template,
            id,
            text: it.text,
            textKey: it.key,
            tags: it.tags,
            suggestedTags: [],
            createdAt: it.at,
            updatedAt: it.at,
            validFrom: it.at,
            recordedAt: it.at,
            lastAccessedAt: it.at,
            importance: (i % 5) / 4,
          };
          delete row.source;
          if (sample) row.importKey = `sample:${id}`;
          else delete row.importKey;
          mem.put(row);
        });
        for (const { head, bytes } of entries) {
          const stride = Math.ceil(bytes.byteLength / 8) * 8;
          let n = lastN.get(`${head.space}|${head.model}`) ?? 0;
          for (let s = 0; s < ids.length; s += blockSize) {
            const part = ids.slice(s, s + blockSize);
            const spans = new Uint32Array(part.length * 2);
            const data = new Uint8Array(part.length * stride);
            part.forEach((_, j) => {
              spans[2 * j] = j * stride;
              spans[2 * j + 1] = bytes.byteLength;
              data.set(bytes, j * stride);
            });
            n += 1;
            const key = `${head.space}|${head.model}|${String(n).padStart(8, '0')}`;
            tx.objectStore('featureHeads').put({ key, space: head.space, model: head.model, n, dim: head.dim, ids: part, bytes: data.byteLength });
            tx.objectStore('featureData').put({ key, spans: spans.buffer, data: data.buffer });
          }
        }
        await new Promise<void>((resolve, reject) => {
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
          tx.onabort = () => reject(tx.error);
        });
        db.close();
      },
      { templateId, items, sample: !!opts.sample, blockSize: BLOCK_SIZE },
    );
  }

  /** The id of the memory whose row shows `text`. */
  async idOf(text: string | RegExp): Promise<string> {
    const id = await this.row(text).first().getAttribute('data-memory-id');
    if (!id) throw new Error(`no row shows ${String(text)}`);
    return id;
  }
}
