import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from './base64';
import { decodeText, lineAt, looksBinary, MAX_TIME, MIN_TIME, parseDate } from './text';

describe('decodeText', () => {
  it('drops a BOM and says when bytes were not UTF-8', () => {
    expect(decodeText(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69]))).toEqual({ text: 'hi', invalidUtf8: false });
    expect(decodeText('\ufeffhi')).toEqual({ text: 'hi', invalidUtf8: false });
    expect(decodeText(new Uint8Array([0x68, 0xc3, 0x28]))).toEqual({ text: 'h\ufffd(', invalidUtf8: true });
  });
});

describe('looksBinary', () => {
  const enc = (s: string) => new TextEncoder().encode(s);
  it('tells pictures, PDFs, zip documents and NUL-bearing bytes from text', () => {
    expect(looksBinary(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2]))).toBe(true); // PNG
    expect(looksBinary(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe(true); // JPEG
    expect(looksBinary(enc('%PDF-1.7\n'))).toBe(true);
    expect(looksBinary(enc('PK\u0003\u0004word/document.xml'))).toBe(true); // .docx
    expect(looksBinary(enc('plain words\u0000more'))).toBe(true); // a NUL byte
    expect(looksBinary(new Uint8Array([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00]))).toBe(true); // UTF-16 "hi"
  });
  it('keeps text as text, whatever its script or its first words', () => {
    expect(looksBinary(enc('Bought a bike from Lena\nPK is my friend'))).toBe(false);
    expect(looksBinary(enc('東京 タワー, café, 🚲'))).toBe(false);
    expect(looksBinary(enc('\uFEFFnote with a BOM'))).toBe(false);
    expect(looksBinary(enc('%PDF is a format'))).toBe(false); // not the "%PDF-" header
    expect(looksBinary(new Uint8Array([]))).toBe(false);
    expect(looksBinary(enc('x'.repeat(9000) + '\u0000'))).toBe(false); // a NUL past the first 8 KB is not looked at
  });
});

describe('parseDate', () => {
  it('reads ISO strings, epoch seconds and epoch milliseconds', () => {
    expect(parseDate('2024-03-01T10:00:00Z')).toBe(Date.UTC(2024, 2, 1, 10));
    expect(parseDate('2024-03-01')).toBe(Date.UTC(2024, 2, 1));
    expect(parseDate(1_700_000_000)).toBe(1_700_000_000_000);
    expect(parseDate('1700000000')).toBe(1_700_000_000_000);
    expect(parseDate(1_700_000_000_123)).toBe(1_700_000_000_123);
    expect(parseDate(1_700_000_000.5)).toBe(1_700_000_000_500);
  });
  it('gives null outside years 1..9999 and for what is not a date', () => {
    expect(parseDate('0001-01-01T00:00:00Z')).toBe(MIN_TIME);
    expect(parseDate('9999-12-31T23:59:59.999Z')).toBe(MAX_TIME);
    for (const bad of [MAX_TIME + 1, 8.64e15, -1e16, NaN, Infinity, 'soon', '', '+275760-09-13', {}, null, true, 'x'.repeat(100)])
      expect(parseDate(bad)).toBeNull();
  });
});

describe('base64 and lines', () => {
  it('round-trips every byte value, and refuses what is not base64', () => {
    const all = Uint8Array.from({ length: 256 * 300 }, (_, i) => i % 256);
    expect(base64ToBytes(bytesToBase64(all))).toEqual(all);
    expect(bytesToBase64(new Uint8Array([1, 2, 3, 4]))).toBe('AQIDBA==');
    expect(base64ToBytes('AQIDBA=')).toBeNull();
    expect(base64ToBytes('AQ$DBA==')).toBeNull();
  });
  it('counts lines from an offset', () => {
    expect(lineAt('a\nb\nc', 4)).toBe(3);
    expect(lineAt('a\nb\nc', 0)).toBe(1);
  });
});

describe('base64 against the platform', () => {
  it('matches btoa for every length 0..300', () => {
    for (let n = 0; n <= 300; n++) {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 255);
      expect(bytesToBase64(b)).toBe(btoa(String.fromCharCode(...b)));
    }
  });
});

describe('base64 decoding against the platform', () => {
  it('matches atob for every length 0..300, and refuses padding inside', () => {
    for (let n = 0; n <= 300; n++) {
      const b = Uint8Array.from({ length: n }, (_, i) => (i * 53 + n) & 255);
      const s = btoa(String.fromCharCode(...b));
      expect(base64ToBytes(s)).toEqual(b);
    }
    expect(base64ToBytes('AA==AAAA')).toBeNull();
    expect(base64ToBytes('A===')).toBeNull();
    expect(base64ToBytes('ÀAAA')).toBeNull();
    expect(base64ToBytes('')).toEqual(new Uint8Array(0));
  });
});
