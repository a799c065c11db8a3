// Base64 for vectors and ciphertext, the same in a worker and in Node. Encoding writes the ASCII
// codes into a byte array and decodes it once (spreading a typed array into String.fromCharCode
// for btoa was 20x slower on 2 KB vectors); decoding is the same table run backwards,
// refusing any character outside the alphabet (and '=' anywhere but the end).

const ALPHABET = new TextEncoder().encode('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/');
const PAD = 61; // '='
const ascii = new TextDecoder();

export function bytesToBase64(bytes: Uint8Array): string {
  const n = bytes.length;
  const out = new Uint8Array(Math.ceil(n / 3) * 4);
  let o = 0;
  const whole = n - (n % 3);
  for (let i = 0; i < whole; i += 3) {
    const x = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out[o++] = ALPHABET[x >> 18];
    out[o++] = ALPHABET[(x >> 12) & 63];
    out[o++] = ALPHABET[(x >> 6) & 63];
    out[o++] = ALPHABET[x & 63];
  }
  if (n - whole > 0) {
    const x = (bytes[whole] << 16) | (n - whole === 2 ? bytes[whole + 1] << 8 : 0);
    out[o++] = ALPHABET[x >> 18];
    out[o++] = ALPHABET[(x >> 12) & 63];
    out[o++] = n - whole === 2 ? ALPHABET[(x >> 6) & 63] : PAD;
    out[o] = PAD;
  }
  return ascii.decode(out);
}

/** Character code -> 6-bit value, -1 for anything outside the alphabet. */
const VALUE = new Int8Array(128).fill(-1);
ALPHABET.forEach((c, i) => (VALUE[c] = i));

/** The bytes, or null when the text is not canonical base64 (length a multiple of 4). */
export function base64ToBytes(text: string): Uint8Array | null {
  const len = text.length;
  if (len % 4 !== 0) return null;
  const pad = len > 0 && text.charCodeAt(len - 1) === PAD ? (text.charCodeAt(len - 2) === PAD ? 2 : 1) : 0;
  const out = new Uint8Array((len / 4) * 3 - pad);
  let o = 0;
  for (let i = 0; i < len; i += 4) {
    const last = i + 4 === len;
    const a = VALUE[text.charCodeAt(i)] ?? -1;
    const b = VALUE[text.charCodeAt(i + 1)] ?? -1;
    const c = last && pad === 2 ? 0 : (VALUE[text.charCodeAt(i + 2)] ?? -1);
    const d = last && pad >= 1 ? 0 : (VALUE[text.charCodeAt(i + 3)] ?? -1);
    if ((a | b | c | d) < 0) return null;
    const x = (a << 18) | (b << 12) | (c << 6) | d;
    out[o++] = x >> 16;
    if (o < out.length) out[o++] = (x >> 8) & 255;
    if (o < out.length) out[o++] = x & 255;
  }
  return out;
}
