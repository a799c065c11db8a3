// The embed worker's Transformers.js helpers that need no browser: the once-per-URL fetch with
// byte progress, and the thread count.
import { describe, expect, it, vi } from 'vitest';
import { createOnceFetch, wasmThreads } from './embed-transformers';

function fakeFetch(files: Record<string, Uint8Array>, log: string[]): typeof fetch {
  return (async (input: RequestInfo | URL) => {
    const url = String(input);
    log.push(url);
    const body = files[url];
    if (!body) return new Response('missing', { status: 404 });
    // two chunks, with a Content-Length
    const stream = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(body.subarray(0, body.length >> 1));
        c.enqueue(body.subarray(body.length >> 1));
        c.close();
      },
    });
    return new Response(stream, { status: 200, headers: { 'content-length': String(body.length) } });
  }) as typeof fetch;
}

describe('createOnceFetch', () => {
  it('downloads each URL once, answers every request from that copy and reports bytes', async () => {
    const big = new Uint8Array(600 * 1024).map((_, i) => i % 251);
    const log: string[] = [];
    const progress: [number, number | undefined][] = [];
    const once = createOnceFetch((l, t) => progress.push([l, t]), fakeFetch({ '/m/a.onnx': big, '/m/c.json': new Uint8Array([123, 125]) }, log));
    const [r1, r2] = await Promise.all([once.fetch('/m/a.onnx'), once.fetch('/m/a.onnx')]);
    expect(log).toEqual(['/m/a.onnx']);
    const same = (b: ArrayBuffer) => Buffer.from(b).equals(Buffer.from(big));
    expect(same(await r1.arrayBuffer())).toBe(true);
    expect(same(await r2.arrayBuffer())).toBe(true); // each answer has its own body
    expect(r1.headers.get('content-length')).toBe(String(big.length));
    // 300 KiB, then 600 KiB = the total: both over the 256 KiB step
    expect(progress).toEqual([
      [300 * 1024, 600 * 1024],
      [600 * 1024, 600 * 1024],
    ]);
    progress.length = 0;
    expect(await (await once.fetch('/m/c.json')).text()).toBe('{}');
    expect(progress).toEqual([[600 * 1024 + 2, 600 * 1024 + 2]]); // a file's end is always reported
    expect((await once.fetch('/m/nope.json')).status).toBe(404);
    once.clear();
    await once.fetch('/m/a.onnx');
    expect(log.filter((u) => u === '/m/a.onnx')).toHaveLength(2); // cleared: fetched again
  });

  it('forgets a failed download so a later request tries again', async () => {
    let n = 0;
    const flaky = (async () => {
      if (n++ === 0) throw new TypeError('network error');
      return new Response('ok');
    }) as typeof fetch;
    const once = createOnceFetch(() => undefined, flaky);
    await expect(once.fetch('/x')).rejects.toThrow('network error');
    expect(await (await once.fetch('/x')).text()).toBe('ok');
  });
});

describe('createOnceFetch on a stalled download', () => {
  it('stops a file that brings no byte for stallMs, says which, and lets a later request retry', async () => {
    vi.useFakeTimers();
    try {
      let aborted = false;
      let calls = 0;
      // the first answer sends one chunk, then nothing; the second is whole
      const stalling = (async (_input: RequestInfo | URL, init?: RequestInit) => {
        init?.signal?.addEventListener('abort', () => (aborted = true));
        if (calls++ > 0) return new Response('whole');
        const stream = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new Uint8Array([1, 2, 3])) });
        return new Response(stream, { headers: { 'content-length': '10' } });
      }) as typeof fetch;
      const once = createOnceFetch(() => undefined, stalling, 5_000);
      const got = once.fetch('/m/onnx/model.onnx');
      const failed = expect(got).rejects.toMatchObject({ code: 'MODEL_LOAD_FAILED', detail: 'stalled: no data for 5 s from model.onnx' });
      await vi.advanceTimersByTimeAsync(4_999);
      expect(aborted).toBe(false); // 3 of 10 bytes came: still waiting
      await vi.advanceTimersByTimeAsync(1);
      await failed;
      expect(aborted).toBe(true); // the request itself was stopped
      expect(await (await once.fetch('/m/onnx/model.onnx')).text()).toBe('whole');
    } finally {
      vi.useRealTimers();
    }
  });

  it('waits on a slow file as long as bytes keep coming', async () => {
    vi.useFakeTimers();
    try {
      let push: ((b: Uint8Array | null) => void) | undefined;
      const slow = (async () => {
        const stream = new ReadableStream<Uint8Array>({
          start: (c) => void (push = (b) => (b ? c.enqueue(b) : c.close())),
        });
        return new Response(stream);
      }) as typeof fetch;
      const once = createOnceFetch(() => undefined, slow, 5_000);
      const got = once.fetch('/slow.bin');
      for (let i = 0; i < 4; i++) {
        await vi.advanceTimersByTimeAsync(4_000); // 16 s in all, never 5 s without a byte
        push!(new Uint8Array([i]));
      }
      push!(null);
      expect([...new Uint8Array(await (await got).arrayBuffer())]).toEqual([0, 1, 2, 3]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('wasmThreads', () => {
  it('uses several threads only under cross-origin isolation, at most 4', () => {
    expect(wasmThreads(false, 8)).toBe(1);
    expect(wasmThreads(true, 2)).toBe(2);
    expect(wasmThreads(true, 16)).toBe(4);
    expect(wasmThreads(true, undefined)).toBe(1);
  });
});
