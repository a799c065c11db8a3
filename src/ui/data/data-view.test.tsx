// @vitest-environment jsdom
// The "Your data" cards against the sample stand-in for the services (src/testing/data-api.ts), whose
// answers are fixed: 124 items found, 120 new, 3 already here, 1 repeated, written 40 at a time.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { setDataApiForTests, type DataApi } from './data-api';
import { createSampleDataApi } from '../../testing/data-api';
import { ImportCard } from './ImportCard';
import { BackupCard } from './BackupCard';
import { BackupBanner } from './BackupBanner';
import { changedWords, ImportPreviewPanel } from './ImportPreviewPanel';
import { outcomeWords } from './files';
import { useUi } from '../../state/ui-store';
import { AppError } from '../../core/errors';

const NOW = Date.UTC(2026, 10, 24, 12);
let api: DataApi;

beforeEach(() => {
  api = createSampleDataApi({ now: () => NOW, lastBackupDaysAgo: 40, passphrase: 'correct horse' });
  setDataApiForTests(api);
});
afterEach(() => {
  cleanup();
  setDataApiForTests(null);
  vi.restoreAllMocks();
});

const file = (name: string, text: string) => new File([text], name, { type: 'text/plain', lastModified: 1_700_000_000_000 });

describe('ImportCard', () => {
  it('previews a CSV with its column mapping, imports with progress and says what happened', async () => {
    const user = userEvent.setup();
    const preview = vi.spyOn(api, 'previewImport');
    const run = vi.spyOn(api, 'runImport');
    render(<ImportCard />);
    await user.upload(screen.getByTestId('import-files'), file('notes.csv', 'note,tags\nhello,a\n'));
    expect(await screen.findByTestId('preview-fresh')).toHaveProperty('textContent', '120');
    expect(screen.getByTestId('preview-existing').textContent).toBe('3');
    expect(screen.getByTestId('preview-repeated').textContent).toBe('1');
    // the bytes reached the services as they were in the file
    const req = preview.mock.calls[0]![0];
    expect(req.files).toHaveLength(1);
    expect(req.files[0]!.name).toBe('notes.csv');
    expect(new TextDecoder().decode(req.files[0]!.bytes)).toBe('note,tags\nhello,a\n');
    expect(req.files[0]!.lastModified).toBe(1_700_000_000_000);
    expect(req.format).toBeUndefined(); // detected by the services
    expect((screen.getByRole('combobox', { name: 'Format' }) as HTMLSelectElement).value).toBe('csv');
    // the mapping's selects come from csvColumns; choosing one previews again with it
    const tags = screen.getByRole('combobox', { name: 'Tags from column' });
    expect(within(tags).getAllByRole('option').map((o) => o.textContent)).toEqual(['(none)', 'note', 'tags', 'date', 'stars', 'link']);
    await user.selectOptions(tags, 'tags');
    await screen.findByTestId('import-preview');
    expect(preview.mock.calls.at(-1)![0].csv).toEqual({ mapping: { text: 'note', tags: 'tags' } });
    // problems are listed with where they are
    expect(screen.getByTestId('preview-problems').textContent).toContain('notes.csv, line 14');

    await user.click(screen.getByRole('button', { name: 'Import 120 memories' }));
    expect((await screen.findByTestId('import-outcome')).textContent).toBe('Imported 120 memories; 4 were already here.');
    expect(run).toHaveBeenCalledTimes(1);
    expect(run.mock.calls[0]![0]).toBe('plan-2'); // the plan of the last preview
  });

  it('a restored backup says how many memories and earlier versions came back, as the lists count them', async () => {
    const user = userEvent.setup();
    const preview = api.previewImport.bind(api);
    vi.spyOn(api, 'previewImport').mockImplementation(async (req, signal) => ({ ...(await preview(req, signal)), fresh: 5, backupParts: { earlier: 1, trashed: 0 } }));
    vi.spyOn(api, 'runImport').mockResolvedValue({ written: 5, skipped: 0, batches: 1, cancelled: false, kinds: { current: 4, earlier: 1, trashed: 0 } });
    render(<ImportCard />);
    await user.upload(screen.getByTestId('import-files'), file('mnemograph-backup.json', '{}'));
    await user.click(await screen.findByRole('button', { name: 'Restore 4 memories and 1 earlier version' }));
    expect((await screen.findByTestId('import-outcome')).textContent).toBe('Restored 4 memories and 1 earlier version.');
  });

  it('a backup holding nothing new says so and offers no "Restore 0 memories"', async () => {
    const user = userEvent.setup();
    const preview = api.previewImport.bind(api);
    vi.spyOn(api, 'previewImport').mockImplementation(async (req, signal) => ({ ...(await preview(req, signal)), total: 3, fresh: 0, existing: 3, repeated: 0, samples: [] }));
    const run = vi.spyOn(api, 'runImport');
    render(<ImportCard />);
    await user.upload(screen.getByTestId('import-files'), file('mnemograph-backup.json', '{}'));
    expect((await screen.findByTestId('preview-nothing-new')).textContent).toBe('Every memory in this backup is already here: nothing new to restore.');
    expect(screen.queryByRole('button', { name: /^(Import|Restore)/ })).toBeNull();
    expect(run).not.toHaveBeenCalled();
  });

  it('a backup holding later versions of memories here offers to bring them up to date and says so after', async () => {
    const user = userEvent.setup();
    const preview = api.previewImport.bind(api);
    vi.spyOn(api, 'previewImport').mockImplementation(async (req, signal) => ({
      ...(await preview(req, signal)),
      total: 3,
      fresh: 1,
      existing: 2,
      samples: [],
      backupParts: { earlier: 1, trashed: 0, updated: 1 },
    }));
    vi.spyOn(api, 'runImport').mockResolvedValue({ written: 1, skipped: 1, batches: 1, cancelled: false, kinds: { current: 0, earlier: 1, trashed: 0 }, updated: 1 });
    render(<ImportCard />);
    await user.upload(screen.getByTestId('import-files'), file('mnemograph-backup.json', '{}'));
    expect((await screen.findByTestId('preview-updated')).textContent).toBe(
      '1 memory already here has a later version in this backup. Restoring brings it up to date; the version here stays in its history.',
    );
    await user.click(screen.getByRole('button', { name: 'Restore 1 earlier version and bring 1 memory up to date' }));
    expect((await screen.findByTestId('import-outcome')).textContent).toBe('Restored 1 earlier version and brought 1 memory up to date; 1 was already here.');
  });

  it('only later versions to bring up to date: the action says just that, and no "nothing new"', async () => {
    const user = userEvent.setup();
    const preview = api.previewImport.bind(api);
    vi.spyOn(api, 'previewImport').mockImplementation(async (req, signal) => ({
      ...(await preview(req, signal)),
      total: 2,
      fresh: 0,
      existing: 2,
      samples: [],
      backupParts: { earlier: 0, trashed: 0, updated: 2 },
    }));
    render(<ImportCard />);
    await user.upload(screen.getByTestId('import-files'), file('mnemograph-backup.json', '{}'));
    expect(await screen.findByRole('button', { name: 'Bring 2 memories up to date' })).toBeTruthy();
    expect(screen.queryByTestId('preview-nothing-new')).toBeNull();
    expect(outcomeWords(0, 0, false, { current: 0, earlier: 0, trashed: 0 }, 2)).toBe('Brought 2 memories up to date.');
  });

  it('files holding nothing new say so and offer no "Import 0 memories"', async () => {
    const user = userEvent.setup();
    const preview = api.previewImport.bind(api);
    vi.spyOn(api, 'previewImport').mockImplementation(async (req, signal) => ({ ...(await preview(req, signal)), total: 2, fresh: 0, existing: 2, repeated: 0, samples: [] }));
    render(<ImportCard />);
    await user.upload(screen.getByTestId('import-files'), file('notes.txt', 'a\nb\n'));
    expect((await screen.findByTestId('preview-nothing-new')).textContent).toBe('Everything you picked is already here: nothing new to import.');
    expect(screen.queryByRole('button', { name: /^(Import|Restore)/ })).toBeNull();
  });

  it('shows progress and stops on Cancel', async () => {
    const user = userEvent.setup();
    let release: () => void = () => {};
    vi.spyOn(api, 'runImport').mockImplementation(async (_id, o = {}) => {
      o.onProgress?.({ written: 40, total: 120 });
      await new Promise<void>((r) => {
        release = r;
        o.signal?.addEventListener('abort', () => r());
      });
      return { written: 40, skipped: 0, batches: 1, cancelled: !!o.signal?.aborted };
    });
    render(<ImportCard />);
    await user.upload(screen.getByTestId('import-files'), file('notes.txt', 'a\nb\n'));
    await user.click(await screen.findByRole('button', { name: 'Import 120 memories' }));
    const bar = await screen.findByRole('progressbar', { name: 'Import progress' });
    expect(bar.getAttribute('aria-valuenow')).toBe('40');
    expect(bar.getAttribute('aria-valuemax')).toBe('120');
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect((await screen.findByTestId('import-outcome')).textContent).toBe('Stopped: 40 memories imported before you cancelled.');
    expect(screen.queryByRole('progressbar')).toBeNull();
    release();
  });

  it('asks for the passphrase of an encrypted backup and shows a wrong one beside the action', async () => {
    const user = userEvent.setup();
    render(<ImportCard />);
    await user.upload(screen.getByTestId('import-files'), file('backup-encrypted.json', '{}'));
    const pass = await screen.findByLabelText('This backup is protected: its passphrase');
    expect(screen.queryByTestId('import-preview')).toBeNull();
    await user.type(pass, 'wrong');
    await user.click(screen.getByRole('button', { name: 'Open backup' }));
    const err = await screen.findByTestId('import-error');
    expect(err.getAttribute('data-code')).toBe('WRONG_PASSPHRASE');
    expect(screen.queryByRole('button', { name: /^(Import|Restore)/ })).toBeNull();
    await user.clear(pass);
    await user.type(pass, 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Open backup' }));
    expect(await screen.findByRole('button', { name: 'Restore 120 memories' })).toBeTruthy();
    expect(screen.queryByTestId('import-error')).toBeNull();
    expect(screen.getByTestId('import-preview').textContent).toContain('search data of 120 memories is reused');
  });

  it('after a file that cannot be read, the format menu asks for a format instead of still "detecting…"', async () => {
    const user = userEvent.setup();
    vi.spyOn(api, 'previewImport').mockRejectedValue(new AppError('IMPORT_INVALID', 'This backup was made by a newer Mnemograph.'));
    render(<ImportCard />);
    await user.upload(screen.getByTestId('import-files'), file('newer.json', '{}'));
    expect((await screen.findByTestId('import-error')).textContent).toContain('newer Mnemograph');
    const format = screen.getByRole('combobox', { name: 'Format' }) as HTMLSelectElement;
    expect(format.selectedOptions[0]!.textContent).toBe('choose a format');
  });

  it('sends the plain-text mode and the quarantine choice', async () => {
    const user = userEvent.setup();
    const preview = vi.spyOn(api, 'previewImport');
    render(<ImportCard />);
    await user.upload(screen.getByTestId('import-files'), file('notes.txt', 'a\n\nb'));
    await user.click(await screen.findByRole('radio', { name: 'paragraph (separated by a blank line)' }));
    await user.click(screen.getByRole('checkbox', { name: /mark imported memories as unsure/ }));
    await screen.findByTestId('import-preview');
    expect(preview.mock.calls.at(-1)![0]).toMatchObject({ text: { mode: 'paragraph' }, quarantine: true });
  });
});

describe('ImportPreviewPanel', () => {
  const preview = { planId: 'p', format: 'backup' as const, total: 6, fresh: 6, existing: 0, repeated: 0, problems: [], samples: [] };
  it('names the format as its menu does, and tells a backup\'s earlier versions and trash from its current memories', () => {
    render(<ImportPreviewPanel preview={{ ...preview, backupParts: { earlier: 1, trashed: 2 } }} />);
    expect(screen.getByTestId('preview-found').textContent).toBe(
      'Found 6 items, read as Mnemograph backup (JSON). Of the new ones, 1 is an earlier version (history) and 2 are in the trash.',
    );
  });
  it('opens the problems at once when nothing could be read (a picture picked as text)', () => {
    const problems = [{ where: 'photo.txt', message: 'This file is not text', severity: 'skipped' as const }];
    const { unmount } = render(<ImportPreviewPanel preview={{ ...preview, format: 'text', total: 0, fresh: 0, problems }} />);
    expect((screen.getByTestId('preview-problems') as HTMLDetailsElement).open).toBe(true);
    unmount();
    render(<ImportPreviewPanel preview={{ ...preview, format: 'text', total: 2, fresh: 1, problems }} />);
    expect((screen.getByTestId('preview-problems') as HTMLDetailsElement).open).toBe(false);
  });

  it('says plainly when everything picked is already here', () => {
    const { unmount } = render(<ImportPreviewPanel preview={{ ...preview, fresh: 0, existing: 6 }} />);
    expect(screen.getByRole('status').textContent).toBe('Every memory in this backup is already here: nothing new to restore.');
    unmount();
    render(<ImportPreviewPanel preview={{ ...preview, fresh: 1, existing: 5 }} />);
    expect(screen.queryByTestId('preview-nothing-new')).toBeNull();
  });

  it('warns when memories already here were changed later in the backup (the restore keeps the copy here)', () => {
    render(<ImportPreviewPanel preview={{ ...preview, fresh: 0, existing: 6, backupParts: { earlier: 0, trashed: 0, changed: 2 } }} />);
    expect(screen.getByTestId('preview-changed').textContent).toBe(
      "2 memories already here were changed later in this backup. Restoring keeps them as they are here: the backup's newer versions are not brought back.",
    );
    expect(changedWords(1)).toBe("1 memory already here was changed later in this backup. Restoring keeps it as it is here: the backup's newer version is not brought back.");
  });

  it('says nothing more when every row is a current memory', () => {
    render(<ImportPreviewPanel preview={{ ...preview, total: 1, fresh: 1, backupParts: { earlier: 0, trashed: 0 }, vectorsReused: 1 }} />);
    expect(screen.getByTestId('preview-found').textContent).toBe(
      'Found 1 item, read as Mnemograph backup (JSON). The search data of 1 memory is reused, so it is ready at once.',
    );
  });
});

describe('BackupCard', () => {
  it('downloads the backup through an object URL it revokes, with the chosen options', async () => {
    const user = userEvent.setup();
    const exp = vi.spyOn(api, 'exportBackup');
    const create = vi.fn(() => 'blob:backup');
    const revoke = vi.fn();
    Object.assign(URL, { createObjectURL: create, revokeObjectURL: revoke });
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(`${this.download} ${this.getAttribute('href')}`);
    });
    render(<BackupCard />);
    expect(screen.getByText(/Last backup:/)).toBeTruthy();
    await user.click(screen.getByRole('checkbox', { name: 'include search data (bigger file, faster restore)' }));
    await user.click(screen.getByRole('checkbox', { name: 'protect the backup with a passphrase' }));
    const download = screen.getByRole('button', { name: 'Download a backup' });
    expect(download).toHaveProperty('disabled', true); // no passphrase yet
    expect(download.getAttribute('aria-describedby')).toBe(screen.getByTestId('backup-needs-pass').id); // and it says why
    expect(screen.getByTestId('backup-needs-pass').textContent).toBe('Type a passphrase twice to download a protected backup, or untick the box.');
    expect(screen.getByText(/cannot be recovered/)).toBeTruthy();
    await user.type(screen.getByLabelText('Passphrase'), 'abc');
    await user.type(screen.getByLabelText('Passphrase again'), 'abd');
    expect(screen.getByText('The two passphrases are not the same.')).toBeTruthy();
    expect(download).toHaveProperty('disabled', true);
    await user.clear(screen.getByLabelText('Passphrase again'));
    await user.type(screen.getByLabelText('Passphrase again'), 'abc');
    await user.click(download);
    expect((await screen.findByTestId('backup-done')).textContent).toBe('Saved mnemograph-backup.json with 120 memories, 3 earlier versions and 1 in the trash.');
    expect(exp).toHaveBeenCalledWith({ vectors: true, passphrase: 'abc' });
    expect(clicks).toEqual(['mnemograph-backup.json blob:backup']);
    await vi.waitFor(() => expect(revoke).toHaveBeenCalledWith('blob:backup'));
    // the passphrase is not left typed in after the backup is made: the next one asks again
    expect((screen.getByLabelText('Passphrase') as HTMLInputElement).value).toBe('');
    expect((screen.getByLabelText('Passphrase again') as HTMLInputElement).value).toBe('');
    expect(download).toHaveProperty('disabled', true);
    expect(screen.getByTestId('backup-needs-pass')).toBeTruthy();
  });

  it('keeps the passphrase typed in when the backup fails, so it can be tried again', async () => {
    const user = userEvent.setup();
    vi.spyOn(api, 'exportBackup').mockRejectedValue(new AppError('QUOTA_EXCEEDED'));
    render(<BackupCard />);
    await user.click(screen.getByRole('checkbox', { name: 'protect the backup with a passphrase' }));
    await user.type(screen.getByLabelText('Passphrase'), 'abc');
    await user.type(screen.getByLabelText('Passphrase again'), 'abc');
    await user.click(screen.getByRole('button', { name: 'Download a backup' }));
    expect(await screen.findByTestId('backup-error')).toBeTruthy();
    expect((screen.getByLabelText('Passphrase') as HTMLInputElement).value).toBe('abc');
  });

  it('sets the reminder', async () => {
    const user = userEvent.setup();
    const set = vi.spyOn(api, 'setBackupReminder');
    render(<BackupCard />);
    const select = screen.getByRole('combobox', { name: 'Remind me to back up' });
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['never', 'every week', 'every 2 weeks', 'every month']);
    await user.selectOptions(select, 'every 2 weeks');
    expect(set).toHaveBeenCalledWith(14);
    await user.selectOptions(select, 'never');
    expect(set).toHaveBeenLastCalledWith(null);
  });
});

describe('BackupBanner', () => {
  it('appears when a backup is due, leads to the data view, and can be dismissed', async () => {
    const user = userEvent.setup();
    render(<BackupBanner now={() => NOW} />);
    expect(screen.queryByTestId('backup-banner')).toBeNull(); // no reminder chosen: never due
    await api.setBackupReminder(30);
    expect((await screen.findByTestId('backup-banner')).textContent).toContain('It has been 40 days since your last backup.');
    await user.click(screen.getByRole('button', { name: 'Back up now' }));
    expect(useUi.getState().view).toBe('data');
    await user.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByTestId('backup-banner')).toBeNull();
  });
});

describe('outcomeWords', () => {
  it('words the outcome', () => {
    expect(outcomeWords(120, 3, false)).toBe('Imported 120 memories; 3 were already here.');
    expect(outcomeWords(1, 0, false)).toBe('Imported 1 memory.');
    expect(outcomeWords(40, 1, true)).toBe('Stopped: 40 memories imported before you cancelled; 1 was already here.');
  });
  it('counts a restored backup as its lists do: an earlier version is not one more memory', () => {
    expect(outcomeWords(5, 0, false, { current: 4, earlier: 1, trashed: 0 })).toBe('Restored 4 memories and 1 earlier version.');
    expect(outcomeWords(3, 0, false, { current: 3, earlier: 0, trashed: 0 })).toBe('Restored 3 memories.');
    // only history came back (a newer backup over an older restore): no "0 memories and"
    expect(outcomeWords(1, 2, false, { current: 0, earlier: 1, trashed: 0 })).toBe('Restored 1 earlier version; 2 were already here.');
    expect(outcomeWords(2, 0, false, { current: 0, earlier: 1, trashed: 1 })).toBe('Restored 1 earlier version and 1 in the trash.');
    expect(outcomeWords(0, 0, false, { current: 0, earlier: 0, trashed: 0 })).toBe('Restored 0 memories.');
    expect(outcomeWords(7, 2, false, { current: 1, earlier: 4, trashed: 2 })).toBe('Restored 1 memory, 4 earlier versions and 2 in the trash; 2 were already here.');
    expect(outcomeWords(2, 0, true, { current: 1, earlier: 1, trashed: 0 })).toBe('Stopped: 1 memory and 1 earlier version restored before you cancelled.');
  });
});
