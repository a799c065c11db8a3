import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Embedder } from '../../src/embed/types';
import { embedCached, resetEmbeddingCacheMemory } from './embedding-cache';

// A fake 3-d encoder: [length, first char code, 1], and a log of what it was asked.
function fake(id = 'fake/v1'): Embedder & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    info: () => ({ id, name: 'fake', dim: 3, backend: 'cpu', maxInputChars: 2000 }),
    embed: async (texts) => {
      asked.push(...texts);
      return texts.map((t) => Float32Array.of(t.length, t.charCodeAt(0) || 0, 1));
    },
  };
}

const dir = mkdtempSync(join(tmpdir(), 'embcache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('embedCached', () => {
  it('embeds each distinct text once, across calls and across processes (the disk)', async () => {
    const enc = fake();
    const a = await embedCached(enc, ['hi', 'hello', 'hi'], { dir });
    expect(a.map((v) => Array.from(v))).toEqual([[2, 104, 1], [5, 104, 1], [2, 104, 1]]);
    expect(enc.asked).toEqual(['hi', 'hello']);
    await embedCached(enc, ['hello', 'new'], { dir });
    expect(enc.asked).toEqual(['hi', 'hello', 'new']);
    resetEmbeddingCacheMemory(); // as if a new process
    const enc2 = fake();
    const b = await embedCached(enc2, ['new', 'hi'], { dir });
    expect(enc2.asked).toEqual([]);
    expect(b.map((v) => Array.from(v))).toEqual([[3, 110, 1], [2, 104, 1]]);
  });

  it('keeps models apart and ignores a torn last record', async () => {
    const other = fake('other/v2');
    await embedCached(other, ['hi'], { dir });
    expect(other.asked).toEqual(['hi']);
    const file = join(dir, 'other_v2.3.bin');
    writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.alloc(7)]));
    resetEmbeddingCacheMemory();
    const again = fake('other/v2');
    await embedCached(again, ['hi'], { dir });
    expect(again.asked).toEqual([]);
  });

  it('never reuses the vectors of another version of the same model (a rebuilt graph), and reuses its own', async () => {
    const v1 = fake('judge/x');
    await embedCached(v1, ['hi'], { dir, version: 'aaaa' });
    const v2 = fake('judge/x');
    await embedCached(v2, ['hi'], { dir, version: 'bbbb' });
    expect(v2.asked).toEqual(['hi']);
    const unversioned = fake('judge/x');
    await embedCached(unversioned, ['hi'], { dir });
    expect(unversioned.asked).toEqual(['hi']);
    resetEmbeddingCacheMemory();
    const again = fake('judge/x');
    await embedCached(again, ['hi'], { dir, version: 'aaaa' });
    expect(again.asked).toEqual([]);
  });
});
