// Passphrase encryption of a backup with WebCrypto (present in browsers, workers and Node 20):
// AES-GCM 256 with a key from PBKDF2-SHA-256. The file is a small JSON envelope that says how it
// was made (kdf, iterations, salt, iv), so a later version can raise the iterations and still read
// old files. GCM authenticates: a wrong passphrase and a changed byte fail alike, and nothing is
// returned; the header is bound to the ciphertext as additional data, so it cannot be edited either.

import { AppError, MESSAGES } from '../core/errors';
import { base64ToBytes, bytesToBase64 } from './base64';
import { decodeText } from './text';

export const ENCRYPTED_FORMAT = 'mnemograph-encrypted';
export const ENCRYPTED_VERSION = 1;
/** OWASP's 2023 figure for PBKDF2-HMAC-SHA256. */
export const PBKDF2_ITERATIONS = 600_000;
/** A file asking for more is refused: a hostile header must not hang the tab for minutes. */
export const MAX_ITERATIONS = 10_000_000;

export interface EncryptedEnvelope {
  format: typeof ENCRYPTED_FORMAT;
  version: typeof ENCRYPTED_VERSION;
  kdf: { name: 'PBKDF2'; hash: 'SHA-256'; iterations: number; salt: string };
  cipher: { name: 'AES-GCM'; iv: string };
  data: string;
}

const AN_ENCRYPTED_BACKUP = 'an encrypted Mnemograph backup';
const enc = new TextEncoder();

function subtle(): SubtleCrypto {
  const s = globalThis.crypto?.subtle;
  if (!s) throw new AppError('IMPORT_INVALID', 'This browser cannot encrypt or decrypt (WebCrypto is not available on this page).');
  return s;
}

/** Binds the header to the ciphertext: any edit to it makes decryption fail. */
function additionalData(e: Pick<EncryptedEnvelope, 'kdf' | 'cipher'>): Uint8Array<ArrayBuffer> {
  return enc.encode(`${ENCRYPTED_FORMAT}/${ENCRYPTED_VERSION}/${e.kdf.name}/${e.kdf.hash}/${e.kdf.iterations}/${e.kdf.salt}/${e.cipher.iv}`);
}

async function deriveKey(passphrase: string, salt: Uint8Array<ArrayBuffer>, iterations: number, usage: KeyUsage): Promise<CryptoKey> {
  const base = await subtle().importKey('raw', enc.encode(passphrase.normalize('NFC')), 'PBKDF2', false, ['deriveKey']);
  return subtle().deriveKey({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, base, { name: 'AES-GCM', length: 256 }, false, [usage]);
}

function validPassphrase(p: unknown): string {
  if (typeof p !== 'string' || p.length === 0) throw new AppError('INVALID_OPTION', 'Type a passphrase.');
  return p;
}

/** The backup text encrypted under the passphrase, as the envelope's JSON text. */
export async function encryptBackup(text: string, passphrase: string): Promise<string> {
  validPassphrase(passphrase);
  const salt = globalThis.crypto.getRandomValues(new Uint8Array(16));
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
  const head = {
    kdf: { name: 'PBKDF2', hash: 'SHA-256', iterations: PBKDF2_ITERATIONS, salt: bytesToBase64(salt) },
    cipher: { name: 'AES-GCM', iv: bytesToBase64(iv) },
  } as const;
  const key = await deriveKey(passphrase, salt, PBKDF2_ITERATIONS, 'encrypt');
  const data = await subtle().encrypt({ name: 'AES-GCM', iv, additionalData: additionalData(head) }, key, enc.encode(text));
  const env: EncryptedEnvelope = { format: ENCRYPTED_FORMAT, version: ENCRYPTED_VERSION, ...head, data: bytesToBase64(new Uint8Array(data)) };
  return JSON.stringify(env);
}

/** True when the text is an encrypted backup (the UI then asks for the passphrase). */
export function isEncryptedBackup(input: string | Uint8Array): boolean {
  const head = decodeText(typeof input === 'string' ? input.slice(0, 200) : input.subarray(0, 200)).text;
  return /^\s*\{\s*"format"\s*:\s*"mnemograph-encrypted"/.test(head);
}

const invalid = (why: string) => new AppError('IMPORT_INVALID', MESSAGES.notA(AN_ENCRYPTED_BACKUP, why));

function bytes(s: unknown, what: string, len?: number): Uint8Array<ArrayBuffer> {
  const b = typeof s === 'string' ? base64ToBytes(s) : null;
  if (!b || (len !== undefined && b.length !== len)) throw invalid(`its ${what} is damaged`);
  return b as Uint8Array<ArrayBuffer>;
}

/** Reads and checks the envelope; throws IMPORT_INVALID for anything that is not one. */
export function readEnvelope(input: string | Uint8Array): EncryptedEnvelope {
  let e: unknown;
  try {
    e = JSON.parse(decodeText(input).text);
  } catch {
    throw invalid('it is not JSON');
  }
  const x = e as Partial<EncryptedEnvelope> | null;
  if (!x || typeof x !== 'object' || x.format !== ENCRYPTED_FORMAT) throw invalid('it has no encryption header');
  if (x.version !== ENCRYPTED_VERSION) throw invalid(`its version (${String(x.version).slice(0, 20)}) is not one this app reads`);
  const k = x.kdf;
  if (!k || k.name !== 'PBKDF2' || k.hash !== 'SHA-256') throw invalid('its key derivation is not PBKDF2-SHA-256');
  if (typeof k.iterations !== 'number' || !Number.isInteger(k.iterations) || k.iterations < PBKDF2_ITERATIONS || k.iterations > MAX_ITERATIONS)
    throw invalid(`its iteration count must be from ${PBKDF2_ITERATIONS} to ${MAX_ITERATIONS}`);
  if (!x.cipher || x.cipher.name !== 'AES-GCM') throw invalid('its cipher is not AES-GCM');
  bytes(k.salt, 'salt', 16);
  bytes(x.cipher.iv, 'IV', 12);
  bytes(x.data, 'content');
  return x as EncryptedEnvelope;
}

/**
 * The backup text, or AppError: WRONG_PASSPHRASE when the passphrase is wrong or any byte was
 * changed (GCM cannot tell these apart, and says so), IMPORT_INVALID when the file is not an
 * encrypted backup at all.
 */
export async function decryptBackup(input: string | Uint8Array, passphrase: string): Promise<string> {
  validPassphrase(passphrase);
  const env = readEnvelope(input);
  const key = await deriveKey(passphrase, bytes(env.kdf.salt, 'salt'), env.kdf.iterations, 'decrypt');
  let plain: ArrayBuffer;
  try {
    plain = await subtle().decrypt({ name: 'AES-GCM', iv: bytes(env.cipher.iv, 'IV'), additionalData: additionalData(env) }, key, bytes(env.data, 'content'));
  } catch (e) {
    // OperationError is GCM's authentication failure: a wrong key or changed bytes.
    throw new AppError('WRONG_PASSPHRASE', undefined, e instanceof Error ? e.name : String(e));
  }
  const text = decodeText(new Uint8Array(plain));
  if (text.invalidUtf8) throw invalid('its content is not text');
  return text.text;
}
