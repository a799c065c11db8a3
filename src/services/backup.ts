// Taking the data out: the full JSON backup (every row the database has, the trash included, and
// the vectors when asked; optionally encrypted with a passphrase) and the Markdown archive, each
// recording when it was made; and the backup reminder (off by default; the person's interval).
// The rows are read here; building, serialising, encrypting and zipping run in the import / export
// worker (the `io` dependency), so a big store never freezes the page.

import { AppError, MESSAGES } from '../core/errors';
import type { Observable } from 'dexie';
import { putSetting } from '../db/repo';
import { liveSettingsQuery, readAllForExport, type ExportRows } from '../db/transfer';
import type { MemoryId } from '../core/types';
import type { ImportParser } from '../protocol/io';
import type { ImageRow } from '../db/images';
import type { ImageRecord } from '../io';
import { blobType } from './image-codec';
import { imageRefs } from '../core/images';
import type { ServiceContext } from './context';
import { SETTING_KEYS } from './settings';
import type { BackupStatus, ExportedFile } from './types';

const DAY_MS = 86_400_000;
export const APP_NAME = 'Mnemograph';
/** The backup's `app.version`: the release that wrote it (read by people, not by the parser). */
export const APP_VERSION = '0.1.0';

const asTime = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) ? x : null);
const asDays = (x: unknown): number | null => (typeof x === 'number' && Number.isInteger(x) && x >= 1 && x <= 365 ? x : null);

/**
 * The reminder's state at `now`: due when a reminder is set and there was no backup yet, or the
 * last one is older than the interval. A stored value that is not valid counts as unset.
 */
export function backupStatus(lastRaw: unknown, daysRaw: unknown, now: number): BackupStatus {
  const lastBackupAt = asTime(lastRaw);
  const reminderDays = asDays(daysRaw);
  const due = reminderDays !== null && (lastBackupAt === null || now - lastBackupAt > reminderDays * DAY_MS);
  return { lastBackupAt, reminderDays, due };
}

/**
 * A selection's rows (export selected): the chosen memories with their earlier versions, their
 * vectors and feedback, the links between them, and no settings (a selection is data, not a
 * setup). No ids: every row.
 */
export function selectRows(rows: ExportRows, ids: readonly MemoryId[] | undefined): ExportRows {
  if (ids === undefined) return rows;
  if (!Array.isArray(ids) || ids.length === 0 || ids.some((x) => typeof x !== 'string'))
    throw new AppError('INVALID_OPTION', 'Choose the memories to export.');
  const chosen = new Set(ids);
  const memories = rows.memories.filter((m) => chosen.has(m.id) || (m.supersededBy !== undefined && chosen.has(m.supersededBy)));
  const kept = new Set(memories.map((m) => m.id));
  return {
    memories,
    feedback: rows.feedback.filter((f) => kept.has(f.memoryId)),
    links: rows.links.filter((l) => kept.has(l.fromId) && kept.has(l.toId)),
    settings: [],
    ...(rows.vectors ? { vectors: rows.vectors.filter((v) => kept.has(v.memoryId)) } : {}),
    images: rows.images.filter((i) => kept.has(i.memoryId)),
  };
}

/** Stored pictures as the backup carries them: their bytes read out of the Blobs (the io worker takes buffers). */
export async function imageRecords(rows: readonly ImageRow[]): Promise<ImageRecord[]> {
  const out: ImageRecord[] = [];
  for (const r of rows) {
    const [data, thumb] = await Promise.all([r.data.arrayBuffer(), r.thumb.arrayBuffer()]);
    const thumbMime = await blobType(r.thumb);
    if (!thumbMime) continue; // never written by this app; the picture's thumbnail is remade if it comes back
    out.push({ id: r.id, memoryId: r.memoryId, mime: r.mime, size: r.size, width: r.width, height: r.height, createdAt: r.createdAt, data, thumb, thumbMime });
  }
  return out;
}

/** "2026-11-24" in UTC, for file names. */
const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

export function createBackup(ctx: ServiceContext, deps: { io: ImportParser }) {
  const { db } = ctx;
  const { io } = deps;

  return {
    /**
     * The full backup: every memory (the trash included), link, feedback row and setting, and the
     * vectors when `vectors` is true (a restore with the same encoder then re-embeds nothing).
     * With a passphrase, encrypted (AES-GCM, PBKDF2). Records lastBackupAt; the backup itself
     * carries that same time, so restoring it says when it was made.
     */
    async exportBackup(opts: { vectors: boolean; passphrase?: string; ids?: MemoryId[] }): Promise<ExportedFile> {
      if (opts.passphrase !== undefined && (typeof opts.passphrase !== 'string' || opts.passphrase === ''))
        throw new AppError('INVALID_OPTION', 'Type a passphrase, or export without one.');
      const now = ctx.now();
      const rows = selectRows(await readAllForExport(db, opts.vectors === true), opts.ids);
      // the language model's key stays on this device: never in a backup
      const settings = [...rows.settings.filter((s) => s.key !== SETTING_KEYS.lastBackupAt && s.key !== SETTING_KEYS.languageModelKey), { key: SETTING_KEYS.lastBackupAt, value: now }];
      const memories = rows.memories.length; // counted before the rows go to the worker
      const earlier = rows.memories.filter((m) => m.supersededBy !== undefined).length;
      const trashed = rows.memories.filter((m) => m.supersededBy === undefined && m.deletedAt !== null).length;
      const kinds = { current: memories - earlier - trashed, earlier, trashed };
      const bytes = await io.writeBackup({
        rows: { memories: rows.memories, links: rows.links, feedback: rows.feedback, settings, vectors: rows.vectors, images: await imageRecords(rows.images) },
        options: { app: { name: APP_NAME, version: APP_VERSION }, now, includeVectors: opts.vectors === true },
        ...(opts.passphrase !== undefined ? { passphrase: opts.passphrase } : {}),
      });
      const blob = new Blob([bytes as Uint8Array<ArrayBuffer>], { type: 'application/json' });
      await putSetting(db, SETTING_KEYS.lastBackupAt, now);
      const suffix = opts.passphrase !== undefined ? '.encrypted' : '';
      return { blob, fileName: `mnemograph-backup-${day(now)}${suffix}.json`, memories, kinds };
    },

    /**
     * A zip of Markdown files, one per memory not in the trash (YAML front matter; current versions
     * only: an earlier version is history, not a note of its own). `ids`: only those. Records lastBackupAt.
     */
    async exportMarkdown(opts: { ids?: MemoryId[] } = {}): Promise<ExportedFile> {
      const now = ctx.now();
      const rows = selectRows(await readAllForExport(db, false), opts.ids);
      const folder = `mnemograph-${day(now)}`;
      const memories = rows.memories.filter((m) => m.supersededBy === undefined);
      const shown = new Set(memories.flatMap((m) => (m.deletedAt === null ? imageRefs(m.media).map((r) => r.imageId) : [])));
      const pictures = await Promise.all(
        rows.images.filter((i) => shown.has(i.id)).map(async (i) => ({ id: i.id, mime: i.mime, data: new Uint8Array(await i.data.arrayBuffer()) })),
      );
      const archive = await io.writeMarkdown({ memories, folder, pictures });
      const blob = new Blob([archive.zip as Uint8Array<ArrayBuffer>], { type: 'application/zip' });
      await putSetting(db, SETTING_KEYS.lastBackupAt, now);
      return { blob, fileName: `${folder}.zip`, memories: archive.files };
    },

    /** The reminder's state, live (follows exports and changes in every tab); `due` read with the services' clock. */
    liveBackupStatus: (): Observable<BackupStatus> =>
      liveSettingsQuery(db, [SETTING_KEYS.lastBackupAt, SETTING_KEYS.backupReminderDays], ([last, days]) => backupStatus(last, days, ctx.now())),

    /** Days between reminders, a whole number from 1 to 365, or null to turn the reminder off (the default). */
    async setBackupReminder(days: number | null): Promise<void> {
      if (days !== null && asDays(days) === null)
        throw new AppError('INVALID_OPTION', MESSAGES.outOfRange('The reminder interval', 'a whole number of days from 1 to 365', days));
      await putSetting(db, SETTING_KEYS.backupReminderDays, days);
    },
  };
}
