// Files in and out of the page. Bytes go straight to the services (parsing runs in a worker): the
// text of a large file never enters React state, only the file names and counts do.
import type { ImportFile } from './data-api';

/** The picked files as the services take them: bytes, the folder-relative path, the file date. */
export async function readPicked(files: Iterable<File>): Promise<ImportFile[]> {
  const out: ImportFile[] = [];
  for (const f of files) {
    const path = f.webkitRelativePath || undefined;
    out.push({ name: f.name, ...(path ? { path } : {}), bytes: new Uint8Array(await f.arrayBuffer()), lastModified: f.lastModified });
  }
  return out;
}

/** Saves a Blob through a temporary <a download>; the object URL is revoked once clicked. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  try {
    a.click();
  } finally {
    a.remove();
    // The download has started by the time the click returns, but a revoke in the same task can
    // cancel it in some browsers: wait one turn.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

export const FORMAT_LABELS = {
  backup: 'Mnemograph backup (JSON)',
  markdown: 'Markdown notes / Obsidian vault',
  bookmarks: 'Browser bookmarks (HTML)',
  text: 'Plain text',
  csv: 'Spreadsheet (CSV)',
  chatgpt: 'ChatGPT export (conversations.json)',
} as const;

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en')} ${n === 1 ? one : many}`;

/** Memory rows in the words of the lists: "4 memories, 1 earlier version and 2 in the trash"; a count of 0 memories is left out beside the rest. */
export function kindsWords(kinds: { current: number; earlier: number; trashed: number }): string {
  const { current, earlier, trashed } = kinds;
  // "1 earlier version", not "0 memories and 1 earlier version"; "0 memories" only when nothing else
  const parts = current || (!earlier && !trashed) ? [plural(current, 'memory', 'memories')] : [];
  if (earlier) parts.push(plural(earlier, 'earlier version', 'earlier versions'));
  if (trashed) parts.push(`${trashed.toLocaleString('en')} in the trash`);
  return parts.length === 1 ? parts[0]! : `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)!}`;
}

/**
 * "Imported 120 memories; 3 were already here." A restored backup (`kinds` given) counts as its
 * lists do: "Restored 4 memories and 1 earlier version." (an earlier version is history, not a memory).
 */
export function outcomeWords(written: number, skipped: number, cancelled: boolean, kinds?: { current: number; earlier: number; trashed: number }, updated = 0): string {
  const what = kinds ? kindsWords(kinds) : plural(written, 'memory', 'memories');
  const verb = kinds ? 'restored' : 'imported';
  // a restore that brought memories up to the backup's later version: "…and brought 1 memory up to date"
  const upToDate = updated ? `brought ${plural(updated, 'memory', 'memories')} up to date` : '';
  const done = written === 0 && upToDate ? upToDate[0]!.toUpperCase() + upToDate.slice(1) : `${kinds ? 'Restored' : 'Imported'} ${what}${upToDate ? ` and ${upToDate}` : ''}`;
  const head = cancelled ? `Stopped: ${what} ${verb} before you cancelled` : done;
  const tail = skipped > 0 ? `; ${skipped.toLocaleString('en')} ${skipped === 1 ? 'was' : 'were'} already here.` : '.';
  return head + tail;
}
