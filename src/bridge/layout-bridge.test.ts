import * as Comlink from 'comlink';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildGraphModel } from '../ui/graph/model';
import { radiiFor } from '../ui/graph/geometry';
import { computeLayout, layoutRequestFor } from '../ui/graph/layout';
import { createLayoutRunner } from './layout-bridge';
import type { WorkerHandle } from './worker-lifecycle';

const model = buildGraphModel({
  query: 'q',
  results: [
    { id: 'a', label: 'A', score: 0.9, mode: 'standard', tags: [] },
    { id: 'b', label: 'B', score: 0.5, mode: 'lateral', tags: [] },
  ],
});
const req = () => layoutRequestFor(model, radiiFor(model));

/** A layout worker on a MessageChannel running the real layout; `mode` makes it crash or hang. */
function fakeWorker(mode: 'ok' | 'crash' | 'silent', made: { n: number; terminated: number }): () => WorkerHandle {
  return () => {
    made.n++;
    const { port1, port2 } = new MessageChannel();
    let crash: (detail: string) => void = () => {};
    if (mode === 'ok') Comlink.expose({ layout: (r: Parameters<typeof computeLayout>[0]) => computeLayout(r) }, port2);
    if (mode === 'crash') port2.onmessage = () => crash('boom');
    return {
      port: port1,
      terminate: () => {
        made.terminated++;
        port1.close();
        port2.close();
      },
      onCrash: (cb) => (crash = cb),
    };
  };
}

afterEach(() => vi.restoreAllMocks());

describe('createLayoutRunner', () => {
  it('lays out on the main thread where there is no Worker (Node)', async () => {
    const r = await createLayoutRunner({ fallback: computeLayout }).run(req());
    expect(r.source).toBe('main');
    expect(r.positions).toHaveLength(6);
    expect([r.positions[0], r.positions[1]]).toEqual([0, 0]); // the query sits at the centre
  });

  it('lays out in the worker when it answers, with the same positions as the main thread', async () => {
    const made = { n: 0, terminated: 0 };
    const runner = createLayoutRunner({ fallback: computeLayout, spawn: fakeWorker('ok', made) });
    const r = await runner.run(req());
    expect(r.source).toBe('worker');
    expect([...r.positions]).toEqual([...computeLayout(req()).positions]);
    runner.dispose();
    expect(made.terminated).toBe(1);
  });

  it('falls back to the main thread when the worker crashes, and does not start it again', async () => {
    const made = { n: 0, terminated: 0 };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const runner = createLayoutRunner({ fallback: computeLayout, spawn: fakeWorker('crash', made) });
    const first = await runner.run(req());
    expect(first.source).toBe('main');
    expect(first.positions.every(Number.isFinite)).toBe(true);
    expect(warn).toHaveBeenCalledOnce();
    expect((await runner.run(req())).source).toBe('main');
    expect(made.n).toBe(1); // no restart loop
  });

  it('falls back when the worker never answers (timeout)', async () => {
    const made = { n: 0, terminated: 0 };
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const r = await createLayoutRunner({ fallback: computeLayout, spawn: fakeWorker('silent', made), timeoutMs: 20 }).run(req());
    expect(r.source).toBe('main');
    expect(made.terminated).toBe(1);
  });
});
