// The graph's layout runner against layout workers on a MessageChannel, and without a worker.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildGraphModel } from '../ui/graph/model';
import { radiiFor } from '../ui/graph/geometry';
import { computeLayout, layoutRequestFor, type LayoutRequest } from '../ui/graph/layout';
import { channelWorkers } from '../testing/channel-worker';
import { createLayoutRunner } from './layout-bridge';

const model = buildGraphModel({
  query: 'q',
  results: [
    { id: 'a', label: 'A', score: 0.9, mode: 'standard', tags: [] },
    { id: 'b', label: 'B', score: 0.5, mode: 'lateral', tags: [] },
  ],
});
const req = () => layoutRequestFor(model, radiiFor(model));

/** Layout workers on a MessageChannel: 'ok' runs the real layout, 'crash' dies on a request, 'silent' never answers. */
function fakeWorkers(mode: 'ok' | 'crash' | 'silent') {
  return channelWorkers((worker) => {
    if (mode === 'ok') return { layout: (r: LayoutRequest) => computeLayout(r) };
    if (mode === 'crash') return { layout: () => worker.crash('boom') };
    return undefined;
  });
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('createLayoutRunner', () => {
  it('lays out on the main thread where there is no Worker (Node)', async () => {
    const r = await createLayoutRunner({ fallback: computeLayout }).run(req());
    expect(r.source).toBe('main');
    expect(r.positions).toHaveLength(6);
    expect([r.positions[0], r.positions[1]]).toEqual([0, 0]); // the query sits at the centre
  });

  it('lays out in the worker when it answers, with the same positions as the main thread', async () => {
    const { spawn, workers } = fakeWorkers('ok');
    const runner = createLayoutRunner({ fallback: computeLayout, spawn });
    const r = await runner.run(req());
    expect(r.source).toBe('worker');
    expect([...r.positions]).toEqual([...computeLayout(req()).positions]);
    runner.dispose();
    expect(workers.map((w) => w.terminated)).toEqual([true]);
  });

  it('falls back to the main thread when the worker crashes, and does not start it again', async () => {
    const { spawn, workers } = fakeWorkers('crash');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const runner = createLayoutRunner({ fallback: computeLayout, spawn });
    const first = await runner.run(req());
    expect(first.source).toBe('main');
    expect([...first.positions]).toEqual([...computeLayout(req()).positions]);
    expect((await runner.run(req())).source).toBe('main');
    expect(workers).toHaveLength(1); // no restart loop
    expect(warn).toHaveBeenCalledOnce(); // the second run went straight to the main thread
  });

  it('falls back when the worker never answers (timeout)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] }); // the port stays real
    const { spawn, workers } = fakeWorkers('silent');
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const run = createLayoutRunner({ fallback: computeLayout, spawn, timeoutMs: 20 }).run(req());
    await vi.advanceTimersByTimeAsync(19);
    expect(workers.map((w) => w.terminated)).toEqual([false]);
    await vi.advanceTimersByTimeAsync(1);
    expect((await run).source).toBe('main');
    expect(workers.map((w) => w.terminated)).toEqual([true]);
    expect(warn).toHaveBeenCalledOnce();
  });
});
