// What one recall costs: one featurize call, one engine message, one bulk read of the result
// memories. Counted at the engine client and the encoder.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { EngineClient } from '../bridge/engine-bridge';
import { services } from './index';
import { createFakeEmbedder } from '../testing/encoder';
import { createChannelEngine } from '../testing/engine';
import { initTestServices } from '../testing/services';

describe('recall cost', () => {
  it('one encoder call and one engine message return results, divergence, status and labels', async () => {
    const calls: string[] = [];
    const engine = createChannelEngine();
    const counted = (source: Parameters<typeof engine.factory>[0]): EngineClient => {
      const client = engine.factory(source);
      return new Proxy(client, {
        get(target, key, receiver) {
          const v = Reflect.get(target, key, receiver);
          if (typeof v !== 'function') return v;
          if (key === 'loadProgress') return v.bind(target); // the bridge's last progress, read locally: no message
          return (...args: unknown[]) => {
            calls.push(String(key));
            return (v as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
    };
    const embedder = createFakeEmbedder();
    await initTestServices({ embedder, engine: counted });
    await services().addMemory({ text: 'lemon tart with a crisp base' });
    await services().addMemory({ text: 'lemon curd needs more zest' });
    calls.length = 0;
    const encoded = embedder.calls.length;
    const out = await services().recall('lemon tart', { topK: 1 });
    expect(calls).toEqual(['recall']);
    expect(embedder.calls.length).toBe(encoded + 1);
    expect(out.results.map((v) => v.memory.text)).toEqual(['lemon tart with a crisp base']);
    expect(out.lateralStatus.samples).toBe(0);
    // the other memory of this session is in the recent window and not a result: labelled
    expect(Object.values(out.labels)).toEqual(['lemon curd needs more zest']);
    expect(out.divergence?.recent.map((r) => r.label).sort()).toEqual(['lemon curd needs more zest', 'lemon tart with a crisp base']);
  });
});
