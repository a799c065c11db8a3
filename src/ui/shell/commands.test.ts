import { describe, expect, it } from 'vitest';
import { COMMANDS, filterCommands, moveActive } from './commands';

const ids = (typed: string) => filterCommands(COMMANDS, typed).map((c) => c.id);

describe('filterCommands', () => {
  it('lists every command for empty text, in order', () => {
    expect(ids('  ')).toEqual(COMMANDS.map((c) => c.id));
  });

  it('puts a label that starts with the text first, then labels containing it, then keyword matches', () => {
    // "se": "Search memories" starts with it; "Open settings" only contains it
    expect(ids('se').slice(0, 2)).toEqual(['search', 'settings']);
    expect(ids('theme')).toEqual(['toggle-theme']);
    expect(ids('dark')).toEqual(['toggle-theme']); // a keyword
    expect(ids('backup')).toEqual(['go-data', 'back-up']); // both by keyword, list order kept
    expect(ids('back')).toEqual(['back-up', 'go-data']); // "Back up…" starts with it
  });

  it('needs every typed word, in any order', () => {
    expect(ids('memories go')).toEqual(['go-memories']);
    expect(ids('sample load')).toEqual(['load-sample']);
    expect(ids('zzqx')).toEqual([]);
  });
});

describe('moveActive', () => {
  it('wraps around both ends and starts from the first or last', () => {
    expect(moveActive(0, 3, 1)).toBe(1);
    expect(moveActive(2, 3, 1)).toBe(0);
    expect(moveActive(0, 3, -1)).toBe(2);
    expect(moveActive(-1, 3, 1)).toBe(0);
    expect(moveActive(-1, 3, -1)).toBe(2);
    expect(moveActive(0, 0, 1)).toBe(-1);
  });
});
