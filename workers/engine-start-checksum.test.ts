// The engine snapshot's checksums at a start (issue 13, warm at 100k): readEngineStart adds each
// row to its stream's checksum as the rows arrive, and the adoption compares those with the head's
// instead of reading every byte again; a computed value that differs refuses the snapshot.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { packEngine } from '../src/core/engine-snapshot';
import { HybridIndex } from '../src/core/hybrid';
import { SpaceIndex } from '../src/core/pipeline';
import { streamChecksum } from '../src/core/snapshot-pack';
import { openDb } from '../src/db/db';
import { engineRows } from '../src/db/engine-snapshot';
import { DB_VERSION } from '../src/db/schema';
import { freshDbName } from '../src/testing/db';
import { seededFeatures } from '../src/testing/features';
import { readEngineStart } from './engine-store/engine';
import { snapshotProblemInSteps } from './engine-warm';

const DIM = 8;
const producers = { encoder: 'enc/v1', lexical: 'lex/v1' };

function packed() {
  const hybrid = new HybridIndex(DIM, {}, producers.encoder);
  const spaces = new SpaceIndex({ e1: (id) => hybrid.vectorOf(id) });
  for (let i = 0; i < 30; i++) {
    const f = seededFeatures(i, 0, DIM);
    const id = `m${String(i).padStart(3, '0')}`;
    hybrid.upsert({ id, text: `note ${i}`, tags: [], importance: 0.5, createdAt: i, validFrom: 0, validTo: null, status: 'active', vector: f.E1! });
    spaces.upsert(id, f);
  }
  return packEngine(hybrid, spaces, 64); // rows of 64 bytes: each stream in many rows
}

describe('readEngineStart', () => {
  it("computes each stream's checksum over its rows as read: the head's values, as over the whole stream", async () => {
    const db = await openDb(freshDbName());
    const s = packed();
    await db.engineSnapshot.bulkPut(engineRows(s, { seq: 0, producers, dim: DIM, size: 30, dbVersion: DB_VERSION, now: 1 }));
    const start = await readEngineStart(db, { producers, dim: DIM }, () => 100);
    expect(start.problem).toBeNull();
    expect(start.snapshot!.vectors.bytes.length).toBeGreaterThan(3);
    expect(start.computed).toEqual({ vectors: streamChecksum(s.vectors.bytes), spaces: streamChecksum(s.spaces.bytes) });
    expect(start.computed).toEqual(s.checksums);
    db.close();
  });
});

describe('snapshotProblemInSteps with computed checksums', () => {
  it('compares the computed values with the head, not the bytes: a matching pair passes, a differing one is refused', async () => {
    const s = packed();
    expect(await snapshotProblemInSteps(s, undefined, s.checksums)).toBeNull();
    expect(await snapshotProblemInSteps(s, undefined, { ...s.checksums, spaces: (s.checksums.spaces + 1) >>> 0 })).toBe('the spaces do not match their checksum');
    expect(await snapshotProblemInSteps(s, undefined, { ...s.checksums, vectors: (s.checksums.vectors ^ 1) >>> 0 })).toBe('the vectors do not match their checksum');
    // without them every byte is read: one flipped byte is caught
    s.spaces.bytes[1][0] ^= 1;
    expect(await snapshotProblemInSteps(s)).toBe('the spaces do not match their checksum');
  });
});
