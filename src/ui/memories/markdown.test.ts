import { describe, expect, it } from 'vitest';
import { fenceLanguage, inlines, parseMarkdown, plainText } from './markdown';

describe('parseMarkdown blocks', () => {
  it('reads headings, paragraphs with their line breaks, and rules', () => {
    expect(parseMarkdown('# Title\n\nfirst line\nsecond line\n\n---\n### Small ###')).toEqual([
      { t: 'h', level: 1, c: [{ t: 'text', v: 'Title' }] },
      { t: 'p', c: [{ t: 'text', v: 'first line' }, { t: 'br' }, { t: 'text', v: 'second line' }] },
      { t: 'hr' },
      { t: 'h', level: 3, c: [{ t: 'text', v: 'Small' }] },
    ]);
  });

  it('keeps a fenced code block verbatim with its language, Markdown inside untouched', () => {
    const b = parseMarkdown('```TypeScript {linenos}\nconst a = **b**;\n\n  <script>x</script>\n```\nafter');
    expect(b[0]).toEqual({ t: 'code', lang: 'typescript', v: 'const a = **b**;\n\n  <script>x</script>' });
    expect(b[1]).toEqual({ t: 'p', c: [{ t: 'text', v: 'after' }] });
  });

  it('an unclosed fence runs to the end; ~~~ fences and a longer closing fence work', () => {
    expect(parseMarkdown('~~~\na\n~~~~\nb')).toEqual([{ t: 'code', lang: '', v: 'a' }, { t: 'p', c: [{ t: 'text', v: 'b' }] }]);
    expect(parseMarkdown('```py\nx = 1')).toEqual([{ t: 'code', lang: 'py', v: 'x = 1' }]);
  });

  it('reduces a fence language to a safe label', () => {
    expect(fenceLanguage('C++')).toBe('c++');
    expect(fenceLanguage('"><img src=x onerror=alert(1)>')).toBe('imgsrcxonerroralert1');
  });

  it('reads nested lists, task boxes and ordered starts', () => {
    const [list] = parseMarkdown('- [x] bread\n- [ ] milk\n  - oat\n  - whole\n- eggs');
    expect(list).toEqual({
      t: 'list',
      ordered: false,
      start: 1,
      items: [
        { task: true, c: [{ t: 'p', c: [{ t: 'text', v: 'bread' }] }] },
        {
          task: false,
          c: [
            { t: 'p', c: [{ t: 'text', v: 'milk' }] },
            {
              t: 'list',
              ordered: false,
              start: 1,
              items: [
                { task: null, c: [{ t: 'p', c: [{ t: 'text', v: 'oat' }] }] },
                { task: null, c: [{ t: 'p', c: [{ t: 'text', v: 'whole' }] }] },
              ],
            },
          ],
        },
        { task: null, c: [{ t: 'p', c: [{ t: 'text', v: 'eggs' }] }] },
      ],
    });
    const [ol] = parseMarkdown('3. three\n4. four');
    expect(ol).toMatchObject({ t: 'list', ordered: true, start: 3 });
    expect(ol!.t === 'list' && ol!.items.length).toBe(2);
  });

  it('reads block quotes (nested) and a table with alignment', () => {
    expect(parseMarkdown('> said\n> > inner')).toEqual([
      { t: 'quote', c: [{ t: 'p', c: [{ t: 'text', v: 'said' }] }, { t: 'quote', c: [{ t: 'p', c: [{ t: 'text', v: 'inner' }] }] }] },
    ]);
    const [t] = parseMarkdown('| a | b |\n|:--|--:|\n| 1 | 2 \\| 3 |');
    expect(t).toEqual({
      t: 'table',
      align: ['left', 'right'],
      head: [[{ t: 'text', v: 'a' }], [{ t: 'text', v: 'b' }]],
      rows: [[[{ t: 'text', v: '1' }], [{ t: 'text', v: '2 | 3' }]]],
    });
  });

  it('survives deep nesting as text rather than recursing without end', () => {
    const deep = '>'.repeat(5000) + ' x';
    expect(() => parseMarkdown(deep)).not.toThrow();
    const many = '- '.repeat(3000) + 'x';
    expect(() => parseMarkdown(many)).not.toThrow();
  });
});

describe('inlines', () => {
  it('reads code, strong, emphasis, strikethrough and escapes', () => {
    expect(inlines('a **b** *c* ~~d~~ `e*f*` \\*g\\*', 0)).toEqual([
      { t: 'text', v: 'a ' },
      { t: 'strong', c: [{ t: 'text', v: 'b' }] },
      { t: 'text', v: ' ' },
      { t: 'em', c: [{ t: 'text', v: 'c' }] },
      { t: 'text', v: ' ' },
      { t: 'del', c: [{ t: 'text', v: 'd' }] },
      { t: 'text', v: ' ' },
      { t: 'code', v: 'e*f*' },
      { t: 'text', v: ' *g*' },
    ]);
  });

  it('leaves snake_case, lone stars and 2 * 3 * 4 as text', () => {
    expect(plainText(inlines('my_var_name and 2 * 3 * 4', 0))).toBe('my_var_name and 2 * 3 * 4');
    expect(inlines('my_var_name', 0)).toEqual([{ t: 'text', v: 'my_var_name' }]);
  });

  it('reads links, autolinks and bare addresses, trimming the sentence end', () => {
    expect(inlines('[the *docs*](https://x.org/a "t") <mailto:a@b.c> see https://y.org/p?q=1.', 0)).toEqual([
      { t: 'link', href: 'https://x.org/a', c: [{ t: 'text', v: 'the ' }, { t: 'em', c: [{ t: 'text', v: 'docs' }] }] },
      { t: 'text', v: ' ' },
      { t: 'link', href: 'mailto:a@b.c', c: [{ t: 'text', v: 'mailto:a@b.c' }] },
      { t: 'text', v: ' see ' },
      { t: 'link', href: 'https://y.org/p?q=1', c: [{ t: 'text', v: 'https://y.org/p?q=1' }] },
      { t: 'text', v: '.' },
    ]);
  });

  it('keeps a dangerous address as data (the renderer decides), and an image as an image node', () => {
    expect(inlines('[x](javascript:alert(1)) ![cat](data:image/png;base64,AAA)', 0)).toEqual([
      { t: 'link', href: 'javascript:alert(1)', c: [{ t: 'text', v: 'x' }] },
      { t: 'text', v: ' ' },
      { t: 'image', href: 'data:image/png;base64,AAA', alt: 'cat' },
    ]);
  });

  it('an unmatched bracket or backtick is text', () => {
    expect(plainText(inlines('a [b c `d', 0))).toBe('a [b c `d');
  });
});
