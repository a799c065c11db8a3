import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { unzipNotes } from './zip-notes';

describe('unzipNotes', () => {
  it('reads the Markdown entries only', () => {
    const zip = zipSync({ 'vault/a.md': strToU8('# A'), 'vault/pic.png': new Uint8Array([1, 2]), 'vault/sub/b.markdown': strToU8('B') });
    const { files, errors } = unzipNotes(zip);
    expect(files.map((f) => f.path).sort()).toEqual(['vault/a.md', 'vault/sub/b.markdown']);
    expect(errors).toEqual([]);
  });
  it('skips an entry that would inflate past the limit before inflating it', () => {
    const zip = zipSync({ 'big.md': new Uint8Array(3 << 20), 'small.md': strToU8('ok') }, { level: 9 });
    expect(zip.length).toBeLessThan(20_000);
    const { files, errors } = unzipNotes(zip, { maxFileBytes: 1 << 20 });
    expect(files.map((f) => f.path)).toEqual(['small.md']);
    expect(errors.map((e) => [e.file, e.message])).toEqual([['big.md', 'This note is larger than 1 MB once unpacked; it was skipped.']]);
  });
  it('stops at the count limit and says so', () => {
    const zip = zipSync({ '1.md': strToU8('1'), '2.md': strToU8('2'), '3.md': strToU8('3') });
    const { files, errors } = unzipNotes(zip, { maxFiles: 2 });
    expect(files).toHaveLength(2);
    expect(errors[0].message).toMatch(/more than 2 notes/);
  });
  it('reports what is not a zip', () => {
    const { files, errors } = unzipNotes(new Uint8Array([1, 2, 3, 4]));
    expect(files).toEqual([]);
    expect(errors[0].message).toMatch(/^This zip could not be read \(.+\)\. Nothing was imported\.$/);
  });
});
