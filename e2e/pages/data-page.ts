// Page model of the "Your data" view (back up, bring memories in, reminder): role / label locators,
// waits on visible state, plus a raw dump of the database read in the page for round-trip checks.
import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page } from '@playwright/test';

export type FormatLabel =
  | 'Mnemograph backup (JSON)'
  | 'Markdown notes / Obsidian vault'
  | 'Browser bookmarks (HTML)'
  | 'Plain text'
  | 'Spreadsheet (CSV)'
  | 'ChatGPT export (conversations.json)';

export interface PreviewCounts {
  fresh: number;
  existing: number;
  repeated: number;
}

/** Every object store of the app's database, rows sorted by key; binary fields as byte arrays. */
export type DbDump = Record<string, unknown[]>;

export class DataPage {
  readonly nav: Locator;
  readonly view: Locator;
  readonly includeVectors: Locator;
  readonly protect: Locator;
  readonly passphrase: Locator;
  readonly passphraseAgain: Locator;
  readonly downloadBackup: Locator;
  readonly downloadMarkdown: Locator;
  readonly backupDone: Locator;
  readonly backupError: Locator;
  readonly reminder: Locator;
  readonly files: Locator;
  readonly folder: Locator;
  readonly format: Locator;
  readonly quarantine: Locator;
  readonly preview: Locator;
  readonly problems: Locator;
  /** The preview's words when nothing picked is new (no action is offered then). */
  readonly nothingNew: Locator;
  readonly importButton: Locator;
  readonly progress: Locator;
  readonly cancel: Locator;
  readonly outcome: Locator;
  readonly importError: Locator;
  readonly backupPassphrase: Locator;
  readonly openBackup: Locator;
  readonly banner: Locator;

  constructor(readonly page: Page) {
    this.nav = page.getByRole('button', { name: 'Your data' });
    this.view = page.getByTestId('data-view');
    this.includeVectors = page.getByRole('checkbox', { name: 'include search data (bigger file, faster restore)' });
    this.protect = page.getByRole('checkbox', { name: 'protect the backup with a passphrase' });
    this.passphrase = page.getByLabel('Passphrase', { exact: true });
    this.passphraseAgain = page.getByLabel('Passphrase again', { exact: true });
    this.downloadBackup = page.getByRole('button', { name: 'Download a backup' });
    this.downloadMarkdown = page.getByRole('button', { name: 'Download as Markdown (zip)' });
    this.backupDone = page.getByTestId('backup-done');
    this.backupError = page.getByTestId('backup-error');
    this.reminder = page.getByRole('combobox', { name: 'Remind me to back up' });
    this.files = page.getByLabel('Choose files');
    this.folder = page.getByLabel('Choose a folder');
    this.format = page.getByRole('combobox', { name: 'Format' });
    this.quarantine = page.getByRole('checkbox', { name: /mark imported memories as unsure/ });
    this.preview = page.getByTestId('import-preview');
    this.problems = page.getByTestId('preview-problems');
    this.nothingNew = page.getByTestId('preview-nothing-new');
    // "Import 3 memories", "Restore 6 memories and 1 earlier version", "Restore 1 earlier version and bring 1 memory up to date", "Bring 2 memories up to date"
    this.importButton = page.getByRole('button', { name: /^(Import \d+ memor(y|ies)|Restore \d+ .+|Bring \d+ memor(y|ies) up to date)$/ });
    this.progress = page.getByRole('progressbar', { name: 'Import progress' });
    this.cancel = page.getByRole('button', { name: 'Cancel' });
    this.outcome = page.getByTestId('import-outcome');
    this.importError = page.getByTestId('import-error');
    this.backupPassphrase = page.getByLabel('This backup is protected: its passphrase');
    this.openBackup = page.getByRole('button', { name: 'Open backup' });
    this.banner = page.getByTestId('backup-banner');
  }

  async open(): Promise<void> {
    await this.nav.click();
    await expect(this.view).toBeVisible();
  }

  /** Downloads a JSON backup and returns its bytes. */
  async exportBackup(opts: { vectors?: boolean; passphrase?: string } = {}): Promise<{ name: string; bytes: Buffer }> {
    await this.includeVectors.setChecked(!!opts.vectors);
    await this.protect.setChecked(opts.passphrase !== undefined);
    if (opts.passphrase !== undefined) {
      await this.passphrase.fill(opts.passphrase);
      await this.passphraseAgain.fill(opts.passphrase);
    }
    const download = this.page.waitForEvent('download');
    await this.downloadBackup.click();
    const d = await download;
    await expect(this.backupDone).toBeVisible();
    const path = await d.path();
    return { name: d.suggestedFilename(), bytes: await readFile(path) };
  }

  async exportMarkdown(): Promise<{ name: string; bytes: Buffer }> {
    const download = this.page.waitForEvent('download');
    await this.downloadMarkdown.click();
    const d = await download;
    return { name: d.suggestedFilename(), bytes: await readFile(await d.path()) };
  }

  /** Picks files (paths on disk, or in-memory files) and waits for the preview or the passphrase prompt. */
  async pick(files: string | string[] | { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
    await this.files.setInputFiles(files);
    await expect(this.preview.or(this.backupPassphrase).or(this.importError)).toBeVisible({ timeout: 60_000 });
  }

  /** Picks a whole folder (webkitdirectory) and waits for the preview. */
  async pickFolder(dir: string): Promise<void> {
    await this.folder.setInputFiles(dir);
    await expect(this.preview.or(this.importError)).toBeVisible({ timeout: 60_000 });
  }

  async chooseFormat(label: FormatLabel): Promise<void> {
    await this.format.selectOption({ label });
    await expect(this.preview).toBeVisible();
  }

  async counts(): Promise<PreviewCounts> {
    const n = async (id: string) => Number(await this.preview.getByTestId(id).textContent());
    return { fresh: await n('preview-fresh'), existing: await n('preview-existing'), repeated: await n('preview-repeated') };
  }

  /** Runs the import and returns the outcome sentence. */
  async runImport(timeout = 120_000): Promise<string> {
    await this.importButton.click();
    await expect(this.outcome).toBeVisible({ timeout });
    return (await this.outcome.textContent()) ?? '';
  }

  async unlock(passphrase: string): Promise<void> {
    await this.backupPassphrase.fill(passphrase);
    await this.openBackup.click();
  }

  /**
   * Reads every store of the app's database straight from IndexedDB, in the page, except the
   * keyword snapshot and its change log (schema v11): derived data the engine rewrites in the
   * background whenever it likes, never in a backup, so no round trip can or should keep it.
   */
  async dump(): Promise<DbDump> {
    return this.page.evaluate(async (derived) => {
      const api = window.__mnemograph;
      if (!api) throw new Error('no test API');
      await api.ready;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(api.dbName);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      // a picture's Blob as its bytes and type (it has no own fields: as an object it would read {})
      const plain = async (v: unknown): Promise<unknown> => {
        if (v instanceof Blob) return { blob: v.type, bytes: Array.from(new Uint8Array(await v.arrayBuffer())) };
        if (v instanceof ArrayBuffer) return Array.from(new Uint8Array(v));
        if (ArrayBuffer.isView(v)) return Array.from(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
        if (Array.isArray(v)) return Promise.all(v.map(plain));
        if (v && typeof v === 'object') return Object.fromEntries(await Promise.all(Object.entries(v).map(async ([k, x]) => [k, await plain(x)])));
        return v;
      };
      const out: Record<string, unknown[]> = {};
      for (const name of Array.from(db.objectStoreNames)) {
        if (derived.includes(name)) continue;
        const rows = await new Promise<unknown[]>((resolve, reject) => {
          const r = db.transaction(name, 'readonly').objectStore(name).getAll();
          r.onsuccess = () => resolve(r.result as unknown[]);
          r.onerror = () => reject(r.error);
        });
        out[name] = (await plain(rows)) as unknown[];
      }
      db.close();
      return out;
    }, DERIVED_STORES);
  }
}

/** Stores of derived data (rebuilt from the memories): `src/db/lexical-snapshot.ts`, `src/db/engine-snapshot.ts`. */
const DERIVED_STORES = ['lexicalSnapshot', 'lexicalLog', 'engineSnapshot'];
