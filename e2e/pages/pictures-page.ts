// Page model of pictures on memories: the capture form's picture picker (choose a file, or paste
// one into the form), the opened memory's picture, and the graph nodes that draw a thumbnail.
// Role / label / test id locators; every wait follows the app's state.
import { expect, type Locator, type Page } from '@playwright/test';
import { KeepPage } from './keep-page';

export class PicturesPage {
  readonly keep: KeepPage;
  readonly picker: Locator;
  readonly pickerThumb: Locator;
  readonly pickerError: Locator;
  readonly caption: Locator;
  readonly opened: Locator;
  readonly openedImage: Locator;

  constructor(readonly page: Page) {
    this.keep = new KeepPage(page);
    this.picker = page.getByTestId('capture-picture');
    this.pickerThumb = page.getByTestId('capture-picture-thumb');
    this.pickerError = page.getByTestId('capture-picture-error');
    this.caption = this.picker.getByLabel('Caption: what the picture shows');
    this.opened = page.getByTestId('memory-picture');
    this.openedImage = page.getByTestId('memory-picture-img');
  }

  /**
   * Opens the app and waits for the encoder (saving featurizes the text and the caption). On a
   * machine shared by many jobs the model can take minutes to load: wait on its state longer than
   * the shared 90 s, then on the list's count.
   */
  async open(): Promise<void> {
    await this.keep.app.goto();
    await expect(this.keep.app.modelStatus).toHaveAttribute('data-phase', 'ready', { timeout: 240_000 });
    await this.keep.app.waitReady();
  }

  /** Chooses a file with the "Attach a picture" button's file input and waits for the picker's verdict. */
  async attach(name: string, bytes: Uint8Array, mimeType = 'image/png'): Promise<void> {
    await this.picker.getByTestId('capture-picture-file').setInputFiles({ name, mimeType, buffer: Buffer.from(bytes) });
    await expect(this.picker).not.toHaveAttribute('data-state', 'reading');
  }

  /** Pastes a file into the capture form's text box (as a screenshot pasted from the clipboard would arrive). */
  async paste(name: string, bytes: Uint8Array, mimeType = 'image/png'): Promise<void> {
    await this.keep.app.text.evaluate(
      (el, { name, data, mimeType }) => {
        const dt = new DataTransfer();
        dt.items.add(new File([new Uint8Array(data)], name, { type: mimeType }));
        el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
      },
      { name, data: [...bytes], mimeType },
    );
    await expect(this.picker).toHaveAttribute('data-state', /attached|empty/);
  }

  /** Types the text and the picture's caption, saves, and waits until the form is empty again. */
  async save(text: string, caption: string): Promise<void> {
    await expect(this.pickerThumb).toBeVisible();
    await this.caption.fill(caption);
    await this.keep.app.text.fill(text);
    const before = await this.keep.app.count();
    await this.keep.app.save.click();
    await expect(this.keep.app.memoryCount).toHaveText(String(before + 1), { timeout: 60_000 });
    await expect(this.keep.app.text).toHaveValue('', { timeout: 60_000 });
    await expect(this.picker).toHaveAttribute('data-state', 'empty');
  }

  /** The opened memory's picture has been decoded and drawn (its natural width is known). */
  async expectOpenedPicture(caption: string): Promise<void> {
    await expect(this.openedImage).toHaveAttribute('alt', caption);
    await expect.poll(() => this.openedImage.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await expect(this.opened.getByText(caption)).toBeVisible();
  }

  /** The graph node of the memory named by `label` says it has a picture, and draws it. */
  graphNode(label: string | RegExp): Locator {
    return this.page.getByRole('button', { name: typeof label === 'string' ? new RegExp(label) : label }).and(this.page.locator('[data-testid^="graph-node-"]'));
  }
}
