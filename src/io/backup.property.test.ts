// Property tests for the backup reader and the encryption envelope over hostile input: parseBackup
// never throws, every row it returns passes its schema, ids stay unique, and each input row is
// either returned or reported; readEnvelope refuses garbage with IMPORT_INVALID, never anything else.

import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import type { Memory } from '../core/types';
import { buildBackup, parseBackup, serializeBackup } from './backup';
import { FeedbackSchema, MemorySchema } from './backup-schema';
import { readEnvelope } from './crypto';
import { hostileText } from './property-helpers';

const T0 = Date.UTC(2024, 0, 1);
const APP = { name: 'mnemograph', version: 'test' };

const validMemory = fc.record({
  id: fc.constantFrom('m1', 'm2', 'm3', 'm4', 'm5', 'm6'),
  text: fc.string({ minLength: 1 }).filter((s) => s.trim() !== ''),
  tags: fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
  suggestedTags: fc.constant([] as string[]),
  importance: fc.double({ min: 0, max: 1, noNaN: true }),
  createdAt: fc.integer({ min: 0, max: 4e12 }),
  updatedAt: fc.constant(T0),
  validFrom: fc.constant(T0),
  validTo: fc.constant(null),
  sessionId: fc.constant('s'),
  status: fc.constantFrom('active', 'quarantined', 'archived'),
  deletedAt: fc.constant(null),
  embedTruncated: fc.boolean(),
}) as fc.Arbitrary<Memory>;

/** A field set to something it must not hold. */
const corruption = fc.oneof(
  fc.record({ key: fc.constant('createdAt'), value: fc.oneof(fc.constant(8.64e15 + 1), fc.constant(-1e17), fc.string(), fc.constant(null)) }),
  fc.record({ key: fc.constant('importance'), value: fc.oneof(fc.double({ min: 1.0001, noNaN: true }), fc.constant('0.5'), fc.constant(-0.1)) }),
  fc.record({ key: fc.constant('text'), value: fc.oneof(fc.constant(''), fc.constant('   '), fc.integer(), fc.array(fc.string())) }),
  fc.record({ key: fc.constant('status'), value: hostileText }),
  fc.record({ key: fc.constant('tags'), value: fc.oneof(fc.string(), fc.array(fc.integer(), { minLength: 1 }), fc.constant(Array(65).fill('t'))) }),
  fc.record({ key: fc.constant('id'), value: fc.oneof(fc.constant(''), fc.integer(), fc.constant('x'.repeat(201))) }),
);

describe('parseBackup over hostile rows', () => {
  it('returns each row whole or reports it; ids unique; every row passes its schema', () => {
    const row = fc.oneof(
      validMemory.map((m) => ({ row: m as unknown, bad: false })),
      fc.tuple(validMemory, corruption).map(([m, c]) => ({ row: { ...m, [c.key]: c.value } as unknown, bad: true })),
      fc.jsonValue().map((j) => ({ row: j as unknown, bad: true })),
    );
    fc.assert(
      fc.property(fc.array(row, { maxLength: 15 }), (rows) => {
        const doc = { ...buildBackup({ memories: [], feedback: [], settings: [] }, { app: APP, now: T0 }), memories: rows.map((r) => r.row) };
        const res = parseBackup(JSON.stringify(doc));
        expect(res.ok).toBe(true);
        const ids = res.items.memories.map((m) => m.id);
        expect(new Set(ids).size).toBe(ids.length);
        for (const m of res.items.memories) expect(v.safeParse(MemorySchema, m).success).toBe(true);
        expect(res.items.memories.length + res.errors.length).toBe(rows.length);
        // A corrupted row is never taken: it is reported at its own index.
        const reported = new Set(res.errors.map((e) => e.index));
        rows.forEach((r, i) => r.bad && expect(reported.has(i)).toBe(true));
      }),
    );
  });

  it('feedback with wrong types, duplicate ids and out-of-range values is reported row by row', () => {
    const fb = fc.record(
      {
        id: fc.constantFrom('f1', 'f2', 'f3'),
        memoryId: fc.oneof(fc.constant('m1'), fc.integer()),
        kind: fc.constantFrom('reinforce', 'suppress', 'like'),
        valence: fc.oneof(fc.integer({ min: -200, max: 200 }), fc.string()),
        at: fc.oneof(fc.integer({ min: 0, max: 4e12 }), fc.constant(1e16)),
      },
      { requiredKeys: ['id', 'memoryId', 'kind', 'at'] },
    );
    fc.assert(
      fc.property(fc.array(fb, { maxLength: 10 }), (feedback) => {
        const doc = { ...buildBackup({ memories: [], feedback: [], settings: [] }, { app: APP, now: T0 }), feedback };
        const res = parseBackup(serializeBackup(doc as never));
        for (const f of res.items.feedback) expect(v.safeParse(FeedbackSchema, f).success).toBe(true);
        expect(res.items.feedback.length + res.errors.length).toBe(feedback.length);
      }),
    );
  });

  it('never throws on any text, bytes or JSON, nor on 100k-deep nesting', () => {
    const input = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.uint8Array(),
      fc.jsonValue().map((j) => JSON.stringify(j)),
      fc.jsonValue().map((j) => JSON.stringify({ format: 'mnemograph-backup', version: 1, exportedAt: '2024-01-01', app: APP, memories: j, feedback: j, settings: j, vectors: j })),
    );
    fc.assert(fc.property(input, (x) => void expect(() => parseBackup(x)).not.toThrow()));
    const deep = `{"format":"mnemograph-backup","version":1,"memories":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(parseBackup(deep).ok).toBe(false);
  });
});

describe('huge fields', () => {
  it('a 5 MB memory text round-trips whole; a 5 MB id is refused by its row', () => {
    const big: Memory = { id: 'm1', text: 'x'.repeat(5_000_000), tags: [], suggestedTags: [], importance: 0.5, createdAt: T0, updatedAt: T0, validFrom: T0, validTo: null, sessionId: 's', status: 'active', deletedAt: null, embedTruncated: false };
    const doc = buildBackup({ memories: [big, { ...big, id: 'y'.repeat(5_000_000) }], feedback: [], settings: [] }, { app: APP, now: T0 });
    const res = parseBackup(serializeBackup(doc));
    expect(res.items.memories).toEqual([big]);
    expect(res.errors.map((e) => e.path)).toEqual(['memories[1].id']);
    const status = parseBackup(serializeBackup({ ...doc, memories: [{ ...big, status: 'z'.repeat(1e6) as never }] }));
    expect(status.errors[0].message.length).toBeLessThan(300);
  });
});

describe('readEnvelope over garbage', () => {
  it('refuses with IMPORT_INVALID and nothing else', () => {
    const env = fc.record({
      format: fc.constantFrom('mnemograph-encrypted', 'x'),
      version: fc.oneof(fc.constant(1), fc.integer()),
      kdf: fc.record({ name: fc.constantFrom('PBKDF2', 'scrypt'), hash: fc.constant('SHA-256'), iterations: fc.oneof(fc.integer(), fc.double()), salt: fc.base64String() }),
      cipher: fc.record({ name: fc.constant('AES-GCM'), iv: fc.base64String() }),
      data: fc.oneof(fc.base64String(), fc.string()),
    });
    fc.assert(
      fc.property(fc.oneof(env.map((e) => JSON.stringify(e)), fc.string(), fc.uint8Array()), (x) => {
        try {
          readEnvelope(x);
        } catch (e) {
          expect(e).toBeInstanceOf(AppError);
          expect((e as AppError).code).toBe('IMPORT_INVALID');
        }
      }),
    );
  });
});
