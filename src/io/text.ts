// Bytes to text, and the dates importers accept. Files come as bytes (a File's ArrayBuffer) or
// as text; invalid UTF-8 is decoded with U+FFFD replacements and reported, never thrown.

/** Dates importers accept: years 1 to 9999, what ISO 8601 writes with four digits (epoch ms). */
export const MIN_TIME = -62135596800000; // 0001-01-01T00:00:00.000Z
export const MAX_TIME = 253402300799999; // 9999-12-31T23:59:59.999Z

export function inTimeRange(ms: number): boolean {
  return Number.isFinite(ms) && ms >= MIN_TIME && ms <= MAX_TIME;
}

export interface Decoded {
  text: string;
  /** True when the bytes were not valid UTF-8 (bad sequences became U+FFFD). */
  invalidUtf8: boolean;
}

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const lenient = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false });

/** Text as is, or bytes decoded as UTF-8 (a leading BOM dropped). */
export function decodeText(input: string | Uint8Array): Decoded {
  if (typeof input === 'string') return { text: input.charCodeAt(0) === 0xfeff ? input.slice(1) : input, invalidUtf8: false };
  try {
    return { text: strict.decode(input), invalidUtf8: false };
  } catch {
    // Not valid UTF-8: the lenient decoder keeps what it can and the caller reports it.
    return { text: lenient.decode(input), invalidUtf8: true };
  }
}

export const INVALID_UTF8_NOTE = 'The file is not valid UTF-8; unreadable bytes were replaced with \uFFFD.';

/** How binary files start (each has NUL bytes soon after too, which alone would tell). */
const BINARY_STARTS: readonly (readonly number[])[] = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38], // GIF8
  [0x25, 0x50, 0x44, 0x46, 0x2d], // %PDF-
  [0x50, 0x4b, 0x03, 0x04], // zip: .docx, .xlsx, .odt, .epub, …
  [0x1f, 0x8b], // gzip
];
const SNIFF_BYTES = 8192;

/**
 * True when the bytes are not text: a picture, a PDF, a zip-based office file or anything with a
 * NUL byte in its first 8 KB (text never has one; UTF-16 text does, and is not UTF-8 either).
 * Such a file imported as text would be one memory of mojibake, so importers skip it whole.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  if (BINARY_STARTS.some((sig) => sig.length <= bytes.length && sig.every((b, i) => bytes[i] === b))) return true;
  return bytes.subarray(0, SNIFF_BYTES).includes(0);
}

export const NOT_TEXT_NOTE =
  'This file is not text (it looks like a picture, a PDF, a Word file or another binary file): nothing was read from it. Save it as text, Markdown or CSV first.';

/**
 * A date from a file: epoch seconds or milliseconds (a number, or digits), or a date string
 * Date.parse reads (ISO 8601 first of all). Numbers below 1e11 are taken as seconds (1e11 s is
 * the year 5138, 1e11 ms is 1973): that is how bookmark files and exports write them.
 * Returns null for anything else or a date outside MIN_TIME..MAX_TIME.
 */
export function parseDate(v: unknown): number | null {
  let ms: number;
  if (typeof v === 'number') ms = Math.abs(v) < 1e11 ? v * 1000 : v;
  else if (v instanceof Date) ms = v.getTime();
  else if (typeof v === 'string') {
    const s = v.trim();
    if (!s || s.length > 64) return null;
    if (/^-?\d+(\.\d+)?$/.test(s)) return parseDate(Number(s));
    ms = Date.parse(s);
  } else return null;
  if (!Number.isFinite(ms)) return null;
  ms = Math.round(ms);
  return inTimeRange(ms) ? ms : null;
}

/** An ISO 8601 string for a time the importers accept (callers check the range first). */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString();
}

/** 1-based line number of a character offset. */
export function lineAt(text: string, offset: number, from = 0, fromLine = 1): number {
  let line = fromLine;
  for (let i = from; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}
