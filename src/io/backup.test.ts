import { describe, expect, it } from 'vitest';
import type { Memory } from '../core/types';
import type { FeedbackRow, MemoryRow, SettingRow, VectorRow } from '../db/schema';
import { buildBackup, parseBackup, serializeBackup } from './backup';
import type { BackupRows, FeedbackRecord, SettingRecord, VectorRecord } from './backup-schema';

// The backup's row types restate the database's: each must be assignable to the other.
const sameShape: [MemoryRow, VectorRow, FeedbackRow, SettingRow] = [
  {} as Memory,
  {} as VectorRecord,
  {} as FeedbackRecord,
  {} as SettingRecord,
];
const sameShapeBack: [Memory, VectorRecord, FeedbackRecord, SettingRecord] = sameShape;
void sameShapeBack;

const APP = { name: 'mnemograph', version: '0.1.0' };
const T0 = Date.UTC(2024, 0, 2, 3, 4, 5);

export function memory(i: number, over: Partial<Memory> = {}): Memory {
  return {
    id: `0190c2a0-0000-7000-8000-${String(i).padStart(12, '0')}`,
    text: `Memory number ${i}: the café on the corner`,
    tags: ['coffee', `n${i}`],
    suggestedTags: ['café'],
    importance: 0.25,
    source: 'https://example.org/notes',
    createdAt: T0 + i,
    updatedAt: T0 + i + 10,
    validFrom: T0 + i,
    validTo: null,
    sessionId: 's-1',
    status: 'active',
    deletedAt: null,
    embedTruncated: false,
    ...over,
  };
}

function rows(): BackupRows {
  const vec = new Uint8Array([0, 1, 2, 254, 255, 128, 7, 9]);
  return {
    memories: [
      memory(1),
      memory(2, { validTo: T0 + 100, status: 'quarantined', media: [{ caption: 'a photo', mime: 'image/png' }], source: undefined }),
      memory(3, { deletedAt: T0 + 50, embedTruncated: true }),
    ],
    versions: [{ id: 'v1', memoryId: memory(1).id, text: 'older words', recordedAt: T0 - 5 }],
    feedback: [
      { id: 'f1', memoryId: memory(1).id, kind: 'reinforce', valence: 40, at: T0 + 7, mode: 'lateral' },
      { id: 'f2', memoryId: memory(2).id, kind: 'suppress', reason: 'off topic', at: T0 + 8 },
    ],
    settings: [
      { key: 'similarity', value: { weights: { E1: 1, E5: 0.5 }, excluded: [] } },
      { key: 'flag', value: true },
    ],
    vectors: [
      { memoryId: memory(1).id, space: 'E1', dim: 8, dtype: 'space', model: 'use-lite@1', data: vec.buffer },
      { memoryId: memory(2).id, space: 'E7', dim: 2, dtype: 'float32', model: 'lex@3', data: new Float32Array([0.5, -1.25]).buffer },
    ],
  };
}

describe('backup round trip', () => {
  it('build -> serialize -> parse gives the same rows, vectors byte-equal', () => {
    const src = rows();
    const doc = buildBackup(src, { app: APP, now: T0, includeVectors: true });
    expect(doc.format).toBe('mnemograph-backup');
    expect(doc.version).toBe(1);
    expect(doc.exportedAt).toBe('2024-01-02T03:04:05.000Z');
    const res = parseBackup(serializeBackup(doc));
    expect(res.errors).toEqual([]);
    expect(res.ok).toBe(true);
    expect(res.header).toEqual({ version: 1, exportedAt: '2024-01-02T03:04:05.000Z', app: APP });
    expect(res.items.memories).toStrictEqual(JSON.parse(JSON.stringify(src.memories)));
    expect(res.items.memories).toEqual(src.memories);
    expect(res.items.versions).toEqual(src.versions);
    expect(res.items.feedback).toEqual(src.feedback);
    expect(res.items.settings).toEqual(src.settings);
    expect(res.items.vectors.map((r) => ({ ...r, data: [...new Uint8Array(r.data)] }))).toEqual(
      src.vectors!.map((r) => ({ ...r, data: [...new Uint8Array(r.data)] })),
    );
    expect(new Float32Array(res.items.vectors[1].data)).toEqual(new Float32Array([0.5, -1.25]));
  });

  it('leaves vectors out unless asked, and reads bytes as well as text', () => {
    const doc = buildBackup(rows(), { app: APP, now: T0 });
    expect(doc.vectors).toBeUndefined();
    const res = parseBackup(new TextEncoder().encode(serializeBackup(doc)));
    expect(res.ok).toBe(true);
    expect(res.items.vectors).toEqual([]);
    expect(res.items.memories).toHaveLength(3);
  });

  it('keeps fields a later schema added to a memory', () => {
    const doc = buildBackup({ ...rows(), memories: [{ ...memory(1), strength: 3 } as Memory] }, { app: APP, now: T0 });
    expect(parseBackup(serializeBackup(doc)).items.memories[0]).toEqual({ ...memory(1), strength: 3 });
  });

  it('refuses a setting JSON cannot hold instead of writing it changed', () => {
    const bad = { ...rows(), settings: [{ key: 'buf', value: new Float32Array(2) }] };
    expect(() => buildBackup(bad, { app: APP })).toThrow('The setting "buf" cannot be written to a backup.');
  });
});

describe('parseBackup refuses what it cannot read, with a clear message', () => {
  it.each([
    ['not json {', /is not JSON/],
    ['[1,2]', /not a JSON object/],
    ['{"format":"other-app","version":1}', /its format is "other-app", not "mnemograph-backup"/],
    ['{"format":"mnemograph-backup","version":3}', /made by a newer Mnemograph \(backup version 3; this app reads version 2\)/],
    ['{"format":"mnemograph-backup","version":"1"}', /is not a backup version/],
    ['{"format":"mnemograph-backup","version":1,"exportedAt":"soon","app":{"name":"m","version":"1"}}', /exportedAt must be an ISO date/],
  ])('%s', (text, msg) => {
    const res = parseBackup(text);
    expect(res.ok).toBe(false);
    expect(res.items.memories).toEqual([]);
    expect(res.errors.at(-1)!.message).toMatch(msg);
    // a newer backup is one: it says so instead of "not a Mnemograph backup"
    expect(res.errors.at(-1)!.message).toMatch(/newer/.test(String(msg)) ? /^This backup was made by a newer Mnemograph .*\. Nothing was imported\.$/ : /^This file is not a Mnemograph backup: .* Nothing was imported\.$/);
  });
  it('refuses bytes that are not UTF-8', () => {
    const res = parseBackup(new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]));
    expect(res.ok).toBe(false);
    expect(res.errors.at(-1)!.message).toMatch(/not UTF-8/);
  });
});

describe('parseBackup skips bad rows whole and says which', () => {
  function docWith(patch: Record<string, unknown>): string {
    return serializeBackup({ ...buildBackup(rows(), { app: APP, now: T0, includeVectors: true }), ...patch } as never);
  }
  it('reports a bad memory by path, skips it and its vectors, keeps the rest', () => {
    const ms = rows().memories as unknown[];
    ms[0] = { ...memory(1), createdAt: 'yesterday' };
    ms.push({ ...memory(4), importance: 7 }, memory(3), 42);
    const res = parseBackup(docWith({ memories: ms }));
    expect(res.ok).toBe(true);
    expect(res.items.memories.map((m) => m.id)).toEqual([memory(2).id, memory(3).id]);
    expect(res.errors.map((e) => e.path)).toEqual(['memories[0].createdAt', 'memories[3].importance', 'memories[4]', 'memories[5]', 'vectors[0]']);
    expect(res.errors[2].message).toMatch(/repeats an earlier entry/);
    expect(res.errors[4].message).toMatch(/belongs to a memory that is not restored/);
    expect(res.items.vectors.map((r) => r.memoryId)).toEqual([memory(2).id]);
    expect(res.errors.every((e) => e.severity === 'skipped' && e.code === 'IMPORT_INVALID')).toBe(true);
  });
  it('refuses a date out of range, an inverted validity and an empty text', () => {
    const res = parseBackup(
      docWith({ memories: [memory(1, { createdAt: 9e15 }), memory(2, { validTo: T0 - 10 ** 6 }), memory(3, { text: '  \n' })], vectors: [] }),
    );
    expect(res.items.memories).toEqual([]);
    expect(res.errors.map((e) => e.message)).toEqual([
      expect.stringMatching(/^memories\[0\]\.createdAt: /),
      'memories[1]: validTo must not be before validFrom.',
      'memories[2].text: A memory needs some text.',
    ]);
  });
  it('skips a vector whose bytes do not match its dim', () => {
    const doc = buildBackup(rows(), { app: APP, now: T0, includeVectors: true });
    doc.vectors![0] = { ...doc.vectors![0], dim: 9 };
    doc.vectors![1] = { ...doc.vectors![1], data: 'not base64!' };
    const res = parseBackup(serializeBackup(doc));
    expect(res.items.vectors).toEqual([]);
    expect(res.errors.map((e) => e.message)).toEqual([
      'vectors[0].data is not 9 bytes of base64; skipped (it will be recomputed).',
      'vectors[1].data is not 8 bytes of base64; skipped (it will be recomputed).',
    ]);
  });
  it('does not let a "__proto__" key reach an object prototype', () => {
    const text = docWith({ memories: [] }).replace('"memories":[]', `"memories":[${JSON.stringify(memory(1)).replace('{', '{"__proto__":{"polluted":1},')}]`);
    const res = parseBackup(text);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(res.items.memories).toHaveLength(1);
    expect(Object.getPrototypeOf(res.items.memories[0])).toBe(Object.prototype);
    expect((res.items.memories[0] as unknown as Record<string, unknown>).polluted).toBeUndefined();
  });
  it('skips a section that is not a list', () => {
    const res = parseBackup(docWith({ feedback: { a: 1 } }));
    expect(res.items.feedback).toEqual([]);
    expect(res.errors).toEqual([expect.objectContaining({ path: 'feedback', message: 'feedback must be a list; the whole section was skipped.' })]);
  });
});

describe('links (schema v5)', () => {
  it('round-trips links whose two memories are in the backup and reports the others', () => {
    const [a, b] = [memory(1), memory(2)];
    const doc = buildBackup({ memories: [a, b], links: [{ fromId: a.id, toId: b.id, kind: 'wikilink' }], feedback: [], settings: [] }, { app: APP, now: T0 });
    const text = serializeBackup({ ...doc, links: [...doc.links!, { fromId: a.id, toId: 'gone', kind: 'wikilink' }] });
    const parsed = parseBackup(text);
    expect(parsed.items.links).toEqual([{ fromId: a.id, toId: b.id, kind: 'wikilink' }]);
    expect(parsed.errors.map((e) => e.message)).toEqual(['links[1] joins a memory that is not restored; skipped.']);
    // no links: no section, and an older backup without one reads as none
    expect('links' in buildBackup({ memories: [a], feedback: [], settings: [] }, { app: APP, now: T0 })).toBe(false);
  });
});
