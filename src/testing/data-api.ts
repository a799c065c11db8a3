// A stand-in for the data services: sample answers shaped like the real ones, for the "Your data"
// view's unit tests. Nothing is written.
import type { Observable, Subscription } from 'dexie';
import { AppError } from '../core/errors';
import type { BackupStatus, DataApi, ImportFormat, ImportPreview, ImportRequest } from '../ui/data/data-api';

const DAY = 86_400_000;

function detect(req: ImportRequest): ImportFormat {
  if (req.format) return req.format;
  const name = req.files[0]?.name.toLowerCase() ?? '';
  if (name === 'conversations.json') return 'chatgpt';
  if (name.endsWith('.json')) return 'backup';
  if (name.endsWith('.csv')) return 'csv';
  if (name.endsWith('.html') || name.endsWith('.htm')) return 'bookmarks';
  if (name.endsWith('.md') || req.files.length > 1) return 'markdown';
  return 'text';
}

/** A tiny observable holding one value (the shape dexie-react-hooks' useObservable reads). */
function valueStore<T>(initial: T) {
  let value = initial;
  const listeners = new Set<(v: T) => void>();
  const observable = {
    subscribe(next?: ((v: T) => void) | { next?: (v: T) => void } | null): Subscription {
      const fn = typeof next === 'function' ? next : (next?.next?.bind(next) ?? (() => {}));
      listeners.add(fn);
      fn(value);
      const sub = {
        closed: false,
        unsubscribe() {
          listeners.delete(fn);
          sub.closed = true;
        },
      };
      return sub;
    },
    getValue: () => value,
    hasValue: () => true,
    [Symbol.observable]() {
      return this;
    },
  } as unknown as Observable<T>;
  return {
    observable,
    set(v: T) {
      value = v;
      for (const l of listeners) l(v);
    },
    get: () => value,
  };
}

export interface SampleOptions {
  now?: () => number;
  /** Days since the last backup (null: never). */
  lastBackupDaysAgo?: number | null;
  reminderDays?: number | null;
  /** The passphrase an "encrypted" sample backup opens with. */
  passphrase?: string;
}

export function createSampleDataApi(opts: SampleOptions = {}): DataApi {
  const now = opts.now ?? Date.now;
  const last = opts.lastBackupDaysAgo === undefined ? 40 : opts.lastBackupDaysAgo;
  const status = valueStore<BackupStatus>({ lastBackupAt: null, reminderDays: null, due: false });
  const update = (lastBackupAt: number | null, reminderDays: number | null) =>
    status.set({ lastBackupAt, reminderDays, due: reminderDays != null && (lastBackupAt == null || now() - lastBackupAt > reminderDays * DAY) });
  update(last == null ? null : now() - last * DAY, opts.reminderDays ?? null);
  const plans = new Map<string, number>();
  let nextPlan = 1;

  return {
    async previewImport(req, signal) {
      signal?.throwIfAborted();
      const format = detect(req);
      if (format === 'backup' && req.files[0]?.name.includes('encrypted')) {
        if (!req.passphrase) return { ...empty(format), needsPassphrase: true };
        if (opts.passphrase !== undefined && req.passphrase !== opts.passphrase)
          throw new AppError('WRONG_PASSPHRASE', 'That passphrase does not open this backup (or the file was changed).');
      }
      const planId = `plan-${nextPlan++}`;
      const preview: ImportPreview = {
        planId,
        format,
        total: 124,
        fresh: 120,
        existing: 3,
        repeated: 1,
        problems: [
          { where: 'notes.csv, line 14', message: 'The date "31/02/2024" could not be read; the row was skipped.', severity: 'skipped' },
          { where: 'notes.csv, line 40', message: 'A script link was dropped from the source.', severity: 'note' },
        ],
        samples: [
          { text: 'Fed the sourdough starter; it doubled by noon.', tags: ['baking'], createdAt: Date.UTC(2024, 2, 3) },
          { text: 'Garden: sow the tomatoes indoors in early March.', tags: ['garden'], createdAt: Date.UTC(2024, 1, 20) },
          { text: 'Ideas for the trip: the coast road, two nights in Porto.', tags: ['travel', 'ideas'] },
        ],
        ...(format === 'csv' ? { csvColumns: ['note', 'tags', 'date', 'stars', 'link'] } : {}),
        ...(format === 'backup' ? { vectorsReused: 120 } : {}),
      };
      plans.set(planId, preview.fresh);
      return preview;
    },
    async runImport(planId, o = {}) {
      const total = plans.get(planId);
      if (total === undefined) throw new AppError('IMPORT_INVALID', 'This preview is out of date: choose the files again.');
      const size = o.batchSize ?? 40;
      let written = 0;
      let batches = 0;
      while (written < total) {
        if (o.signal?.aborted) return { written, skipped: 4, batches, cancelled: true };
        await new Promise((r) => setTimeout(r, 0));
        written = Math.min(total, written + size);
        batches++;
        o.onProgress?.({ written, total });
      }
      plans.delete(planId);
      return { written, skipped: 4, batches, cancelled: false };
    },
    async exportBackup({ vectors, passphrase }) {
      const body = JSON.stringify({ format: passphrase ? 'mnemograph-encrypted' : 'mnemograph-backup', version: 1, vectors });
      update(now(), status.get().reminderDays);
      return { blob: new Blob([body], { type: 'application/json' }), fileName: 'mnemograph-backup.json', memories: 124, kinds: { current: 120, earlier: 3, trashed: 1 } };
    },
    async exportMarkdown() {
      update(now(), status.get().reminderDays);
      return { blob: new Blob(['zip'], { type: 'application/zip' }), fileName: 'mnemograph-notes.zip', memories: 124 };
    },
    liveBackupStatus: () => status.observable,
    async setBackupReminder(days) {
      if (days !== null && (!Number.isInteger(days) || days < 1 || days > 365)) throw new AppError('INVALID_OPTION', 'A reminder is 1 to 365 days.');
      update(status.get().lastBackupAt, days);
    },
  };
}

function empty(format: ImportFormat): ImportPreview {
  return { planId: '', format, total: 0, fresh: 0, existing: 0, repeated: 0, problems: [], samples: [] };
}
