import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildGraphModel } from './model';
import { radiiFor } from './geometry';
import { layoutRequestFor } from './layout';
import { createLayoutRunner } from './layoutClient';

const model = buildGraphModel({
  query: 'q',
  results: [
    { id: 'a', label: 'A', score: 0.9, mode: 'standard', tags: [] },
    { id: 'b', label: 'B', score: 0.5, mode: 'lateral', tags: [] },
  ],
});
const req = () => layoutRequestFor(model, radiiFor(model));

/** A Worker that dies as soon as it is spoken to, like a module that fails to load. */
class CrashingWorker extends EventTarget {
  static made = 0;
  terminated = false;
  constructor() {
    super();
    CrashingWorker.made++;
  }
  postMessage(): void {
    setTimeout(() => this.dispatchEvent(Object.assign(new Event('error'), { message: 'boom' })), 0);
  }
  terminate(): void {
    this.terminated = true;
  }
  start(): void {}
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('createLayoutRunner', () => {
  it('lays out on the main thread where there is no Worker (Node)', async () => {
    const r = await createLayoutRunner().run(req());
    expect(r.source).toBe('main');
    expect(r.positions).toHaveLength(6);
    expect([r.positions[0], r.positions[1]]).toEqual([0, 0]);
  });

  it('falls back to the main thread when the worker crashes, and stops using it', async () => {
    CrashingWorker.made = 0;
    vi.stubGlobal('Worker', CrashingWorker);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const runner = createLayoutRunner();
    const first = await runner.run(req());
    expect(first.source).toBe('main');
    expect(first.positions.every(Number.isFinite)).toBe(true);
    expect(warn).toHaveBeenCalledOnce();
    const second = await runner.run(req());
    expect(second.source).toBe('main');
    expect(CrashingWorker.made).toBe(1); // no restart loop
  });

  it('falls back when the worker never answers (timeout)', async () => {
    class SilentWorker extends CrashingWorker {
      override postMessage(): void {}
    }
    vi.stubGlobal('Worker', SilentWorker);
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    const r = await createLayoutRunner({ timeoutMs: 20 }).run(req());
    expect(r.source).toBe('main');
  });
});
