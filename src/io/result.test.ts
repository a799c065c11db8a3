import { describe, expect, it } from 'vitest';
import { admit, guard } from './result';

describe('admit', () => {
  it('returns the validated draft, or reports why it was skipped', () => {
    const out = { items: [], errors: [] };
    expect(admit({ text: 'hi', tags: 'A b, c' }, { line: 1 }, out, 'r')?.draft).toMatchObject({ text: 'hi', tags: ['a-b', 'c'], importance: 0.5 });
    expect(admit({ text: 'x', importance: 2 }, { line: 2 }, out)).toBeNull();
    expect(out.errors).toEqual([{ line: 2, severity: 'skipped', code: 'INVALID_IMPORTANCE', message: 'Importance must be a number from 0 to 1.' }]);
  });
});

describe('guard', () => {
  it('turns a failure into one report, keeping the whole items read before it', () => {
    const res = guard({ file: 'f' }, (out) => {
      admit({ text: 'kept' }, { line: 1 }, out);
      throw new RangeError('Maximum call stack size exceeded');
    });
    expect(res.items.map((i) => i.draft.text)).toEqual(['kept']);
    expect(res.errors).toEqual([
      {
        file: 'f',
        severity: 'skipped',
        code: 'IMPORT_INVALID',
        message: 'Reading stopped early (RangeError: Maximum call stack size exceeded); the 1 item(s) read before that are whole and were kept.',
      },
    ]);
  });
  it('says nothing was imported when nothing was read', () => {
    const res = guard({}, () => {
      throw new TypeError('boom');
    });
    expect(res.errors[0].message).toBe('This file could not be read for import. Nothing was imported. (TypeError: boom)');
  });
});
