// The import / export worker's API (exposed by io.worker.ts; Node tests expose it on a MessageChannel).
import * as Comlink from 'comlink';
import type { BackupWriteRequest, MarkdownWriteRequest, ParseOutcome, ParseRequest } from '../src/protocol/io';
import { guardApi } from '../src/protocol/guard';
import { parseImport, writeBackup, writeMarkdown } from './io-core';

export function createIoApi(parse: (req: ParseRequest) => Promise<ParseOutcome> = parseImport) {
  return guardApi(
    {
      async parse(req: ParseRequest): Promise<ParseOutcome> {
        const out = await parse(req);
        // a backup's stored vectors go back without a copy
        return Comlink.transfer(out, (out.backup?.vectors ?? []).map((v) => v.data));
      },
      // the file's bytes go back to the page without a copy
      async writeBackup(req: BackupWriteRequest): Promise<Uint8Array> {
        const bytes = await writeBackup(req);
        return Comlink.transfer(bytes, [bytes.buffer as ArrayBuffer]);
      },
      async writeMarkdown(req: MarkdownWriteRequest): Promise<{ zip: Uint8Array; files: number }> {
        const out = writeMarkdown(req);
        return Comlink.transfer(out, [out.zip.buffer as ArrayBuffer]);
      },
      ping: (): 'pong' => 'pong',
    },
    'IMPORT_INVALID',
  );
}
