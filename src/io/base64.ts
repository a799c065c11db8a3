// Base64 for vectors and ciphertext, the same in a worker and in Node (btoa / atob are global
// in both). Chunked, so a 100 MB buffer does not overflow the argument list of fromCharCode.

const CHUNK = 0x8000;

export function bytesToBase64(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += CHUNK) bin += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(bin);
}

const B64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** The bytes, or null when the text is not canonical base64 (length a multiple of 4). */
export function base64ToBytes(text: string): Uint8Array | null {
  if (text.length % 4 !== 0 || !B64.test(text)) return null;
  const bin = atob(text);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
