import { describe, expect, it } from 'vitest';
import { titleLine } from './title';

describe('titleLine', () => {
  it('titles a code snippet by its first line of code, not its fence', () => {
    expect(titleLine('```js\nconst x = [1,2,3].map(n => n * 2);\nconsole.log(x);\n```')).toBe('const x = [1,2,3].map(n => n * 2);');
    expect(titleLine('~~~\n\n  SELECT 1;\n~~~')).toBe('SELECT 1;');
  });
  it('keeps a line that only starts with backticks but says more', () => {
    expect(titleLine('`npm test` failed on CI')).toBe('`npm test` failed on CI');
    expect(titleLine('```js const inline = 1```')).toBe('```js const inline = 1```');
  });
  it('drops heading marks and blank lines, keeps plain text as it is', () => {
    expect(titleLine('\n\n## Garden plan\nTomatoes')).toBe('Garden plan');
    expect(titleLine('#hashtag note')).toBe('#hashtag note');
    expect(titleLine('Walked the dog\r\nat dawn')).toBe('Walked the dog');
  });
  it('cuts long lines with an ellipsis at max characters, and is empty for nothing to say', () => {
    expect(titleLine('abcdefghij', 5)).toBe('abcd…');
    expect(titleLine('abcde', 5)).toBe('abcde');
    expect(titleLine('```\n```')).toBe('');
    expect(titleLine('  ')).toBe('');
  });
});
