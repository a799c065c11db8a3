import { beforeAll, describe, expect, it } from 'vitest';
import { AppError, ERROR_CATALOGUE } from '../core/errors';
import { bytesToBase64 } from './base64';
import { decryptBackup, encryptBackup, isEncryptedBackup, readEnvelope, type EncryptedEnvelope } from './crypto';

const TEXT = '{"format":"mnemograph-backup","memories":["naïve café ☕"]}';
let sealed = '';

// One real encryption (600k PBKDF2 iterations) shared by the tests: each derivation costs ~0.3 s.
beforeAll(async () => {
  sealed = await encryptBackup(TEXT, 'correct horse battery staple');
});

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error('expected a failure');
}

describe('encrypted backups', () => {
  it('writes a self-describing envelope and reads it back with the passphrase', async () => {
    const env = JSON.parse(sealed) as EncryptedEnvelope;
    expect(env).toMatchObject({ format: 'mnemograph-encrypted', version: 1, kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: 600_000 }, cipher: { name: 'AES-GCM' } });
    expect(atob(env.kdf.salt)).toHaveLength(16);
    expect(atob(env.cipher.iv)).toHaveLength(12);
    expect(sealed).not.toContain('café');
    expect(isEncryptedBackup(sealed)).toBe(true);
    expect(isEncryptedBackup(TEXT)).toBe(false);
    expect(await decryptBackup(new TextEncoder().encode(sealed), 'correct horse battery staple')).toBe(TEXT);
  });

  it('refuses a wrong passphrase with the plain-language message', async () => {
    const err = await failure(decryptBackup(sealed, 'correct horse battery stapler'));
    expect(err.code).toBe('WRONG_PASSPHRASE');
    expect(err.message).toBe(ERROR_CATALOGUE.WRONG_PASSPHRASE);
  });

  it('refuses a file with one changed byte of content', async () => {
    const env = JSON.parse(sealed) as EncryptedEnvelope;
    const data = Uint8Array.from(atob(env.data), (c) => c.charCodeAt(0));
    data[3] ^= 1;
    const err = await failure(decryptBackup(JSON.stringify({ ...env, data: bytesToBase64(data) }), 'correct horse battery staple'));
    expect(err.code).toBe('WRONG_PASSPHRASE');
  });

  it('refuses an edited header (a raised iteration count is bound to the ciphertext)', async () => {
    const env = JSON.parse(sealed) as EncryptedEnvelope;
    const err = await failure(decryptBackup(JSON.stringify({ ...env, kdf: { ...env.kdf, iterations: 600_001 } }), 'correct horse battery staple'));
    expect(err.code).toBe('WRONG_PASSPHRASE');
  });

  it('tells a file that is not an encrypted backup apart, before any key is derived', () => {
    const env = JSON.parse(sealed) as EncryptedEnvelope;
    const cases: [unknown, RegExp][] = [
      ['plain text', /it is not JSON/],
      [{ format: 'mnemograph-backup' }, /it has no encryption header/],
      [{ ...env, version: 2 }, /its version \(2\)/],
      [{ ...env, kdf: { ...env.kdf, iterations: 1000 } }, /iteration count must be from 600000 to 10000000/],
      [{ ...env, kdf: { ...env.kdf, iterations: 1e12 } }, /iteration count/],
      [{ ...env, kdf: { ...env.kdf, salt: 'AAAA' } }, /its salt is damaged/],
      [{ ...env, cipher: { name: 'AES-CBC', iv: env.cipher.iv } }, /cipher is not AES-GCM/],
      [{ ...env, data: '***' }, /its content is damaged/],
    ];
    for (const [input, msg] of cases) {
      const text = typeof input === 'string' ? input : JSON.stringify(input);
      expect(() => readEnvelope(text)).toThrow(msg);
      try {
        readEnvelope(text);
      } catch (e) {
        expect((e as AppError).code).toBe('IMPORT_INVALID');
      }
    }
  });

  it('asks for a passphrase rather than encrypting under an empty one', async () => {
    expect((await failure(encryptBackup(TEXT, ''))).message).toBe('Type a passphrase.');
  });

  it('uses a fresh salt and IV each time', async () => {
    const again = JSON.parse(await encryptBackup(TEXT, 'correct horse battery staple')) as EncryptedEnvelope;
    const first = JSON.parse(sealed) as EncryptedEnvelope;
    expect(again.kdf.salt).not.toBe(first.kdf.salt);
    expect(again.cipher.iv).not.toBe(first.cipher.iv);
  });
});
