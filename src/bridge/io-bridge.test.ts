import { describe, expect, it } from 'vitest';
import { createIoApi } from '../../workers/io-api';
import { parseImport } from '../../workers/io-core';
import { channelWorkers } from '../testing/channel-worker';
import { codeOf } from '../testing/errors';
import { gate } from '../testing/gate';
import type { ParseRequest } from '../protocol/io';
import { createIoBridge, parseTimeout, writeTimeout } from './io-bridge';

const text = (s: string): ParseRequest => ({ files: [{ name: 'notes.txt', bytes: new TextEncoder().encode(s) }] });

describe('io bridge', () => {
  it('starts the worker on the first parse and returns its drafts over the channel', async () => {
    const { spawn, workers } = channelWorkers(() => createIoApi());
    const io = createIoBridge({ spawn });
    expect(workers.length).toBe(0);
    const out = await io.parse(text('one\n\ntwo'));
    expect(out.format).toBe('text');
    expect(out.result.items.map((i) => [i.draft.text, i.where.line])).toEqual([
      ['one', 1],
      ['two', 3],
    ]);
    expect(workers.length).toBe(1);
    // a failure leaves the worker as an envelope and arrives as its AppError
    expect(await codeOf(io.parse({ files: [] }))).toBe('IMPORT_INVALID');
    io.dispose();
  });

  it('an abort terminates the busy worker (the parsers cannot be interrupted); the next parse starts a new one', async () => {
    const held = gate();
    const entered = gate();
    const { spawn, workers } = channelWorkers((w) =>
      createIoApi(async (req) => {
        if (workers.indexOf(w) === 0) {
          entered.open();
          await held.opened; // the first worker is stuck in a long parse
        }
        return parseImport(req);
      }),
    );
    const io = createIoBridge({ spawn });
    const ctl = new AbortController();
    const first = codeOf(io.parse(text('slow'), ctl.signal));
    await entered.opened;
    ctl.abort();
    expect(await first).toBe('ABORTED');
    expect(workers[0].terminated).toBe(true);
    const out = await io.parse(text('fast'));
    expect(out.result.items.map((i) => i.draft.text)).toEqual(['fast']);
    expect(workers.length).toBe(2);
    held.open();
    io.dispose();
  });

  it('gives large inputs a longer timeout: 30 s plus about 2 s per MB', () => {
    const mb = { files: [{ name: 'a.csv', bytes: new Uint8Array(1 << 20) }, { name: 'b.csv', bytes: new Uint8Array(1 << 20) }] };
    expect(parseTimeout(mb)).toBe(30_000 + 4096);
    expect(parseTimeout(text(''))).toBe(30_000);
  });

  it('writes a backup in the worker: the rows go there by copy, the bytes come back', async () => {
    const { spawn } = channelWorkers(() => createIoApi());
    const io = createIoBridge({ spawn });
    const data = new Float32Array([1, 2]).buffer;
    const rows = {
      memories: [],
      feedback: [],
      settings: [{ key: 'theme', value: 'dark' }],
      vectors: [{ memoryId: 'm1', space: 'E1' as const, dim: 2, dtype: 'float32' as const, model: 'x', data }],
    };
    const bytes = await io.writeBackup({ rows, options: { app: { name: 'Mnemograph', version: '0' }, now: 0, includeVectors: true } });
    const doc = JSON.parse(new TextDecoder().decode(bytes)) as { exportedAt: string; vectors: { data: string }[]; settings: unknown[] };
    expect(doc.exportedAt).toBe('1970-01-01T00:00:00.000Z');
    // [1, 2] as little-endian float32: 00 00 80 3f 00 00 00 40
    expect(doc.vectors[0].data).toBe('AACAPwAAAEA=');
    expect(doc.settings).toEqual([{ key: 'theme', value: 'dark' }]);
    // copied, not transferred (a long transfer list costs the page more than the copy)
    expect(data.byteLength).toBe(8);
    const md = await io.writeMarkdown({ memories: [], folder: 'f' });
    expect(md.files).toBe(0);
    expect(md.zip.byteLength).toBe(22); // an empty zip is its end-of-central-directory record alone
    io.dispose();
  });

  it('gives an export 30 s plus 1 ms per row and per 4 KB of vectors, and 30 s more to derive a key', () => {
    const rows = { memories: new Array(1000), feedback: new Array(10), settings: [], vectors: [{ data: new ArrayBuffer(8192) }] } as never;
    expect(writeTimeout({ rows, options: { app: { name: '', version: '' } } })).toBe(30_000 + 1010 + 2);
    expect(writeTimeout({ rows, options: { app: { name: '', version: '' } }, passphrase: 'p' })).toBe(60_000 + 1010 + 2);
    expect(writeTimeout({ memories: new Array(500), folder: 'f' })).toBe(30_500);
  });
});
