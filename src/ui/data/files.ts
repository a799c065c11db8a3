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

/** "Imported 120 memories; 3 were already here." */
export function outcomeWords(written: number, skipped: number, cancelled: boolean): string {
  const mem = (n: number) => `${n} ${n === 1 ? 'memory' : 'memories'}`;
  const head = cancelled ? `Stopped: ${mem(written)} imported before you cancelled` : `Imported ${mem(written)}`;
  const tail = skipped > 0 ? `; ${skipped} ${skipped === 1 ? 'was' : 'were'} already here.` : '.';
  return head + tail;
}
