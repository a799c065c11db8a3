// A memory's text as Markdown, built as React elements from parseMarkdown's tree: no markup is
// ever made from the text (React escapes every string), a link is followed only when safeUrl
// allows its address (http, https, mailto; else its words are plain text), and an image is never
// loaded (it becomes a link to its address). Code blocks are monospace with their language.
import { Fragment, useMemo, type ReactNode } from 'react';
import { safeUrl } from '../../io';
import { parseMarkdown, type Block, type Inline } from './markdown';

function inline(nodes: readonly Inline[], key = ''): ReactNode[] {
  return nodes.map((n, i) => {
    const k = `${key}${i}`;
    switch (n.t) {
      case 'text':
        return <Fragment key={k}>{n.v}</Fragment>;
      case 'br':
        return <br key={k} />;
      case 'code':
        return <code key={k} className="md__code">{n.v}</code>;
      case 'strong':
        return <strong key={k}>{inline(n.c, `${k}.`)}</strong>;
      case 'em':
        return <em key={k}>{inline(n.c, `${k}.`)}</em>;
      case 'del':
        return <del key={k}>{inline(n.c, `${k}.`)}</del>;
      case 'link': {
        const href = safeUrl(n.href);
        if (!href) return <Fragment key={k}>{inline(n.c, `${k}.`)}</Fragment>;
        return (
          <a key={k} href={href} target="_blank" rel="noopener noreferrer nofollow">
            {inline(n.c, `${k}.`)}
          </a>
        );
      }
      case 'image': {
        const href = safeUrl(n.href);
        const words = `Image: ${n.alt || 'no description'}`;
        return href ? (
          <a key={k} href={href} target="_blank" rel="noopener noreferrer nofollow" className="md__image">
            {words}
          </a>
        ) : (
          <span key={k} className="md__image">{words}</span>
        );
      }
    }
  });
}

function block(b: Block, k: string): ReactNode {
  switch (b.t) {
    case 'p':
      return <p key={k}>{inline(b.c)}</p>;
    case 'h': {
      // headings inside a memory sit below the memory's own title: h3 at most
      const H = (['h3', 'h4', 'h5', 'h6', 'h6', 'h6'] as const)[b.level - 1]!;
      return <H key={k} className={`md__h md__h${b.level}`}>{inline(b.c)}</H>;
    }
    case 'hr':
      return <hr key={k} />;
    case 'quote':
      return <blockquote key={k}>{blocks(b.c, `${k}.`)}</blockquote>;
    case 'code':
      return (
        <figure key={k} className="md__pre" data-testid="md-code" data-lang={b.lang || undefined}>
          {b.lang && <figcaption className="md__lang">{b.lang}</figcaption>}
          <pre tabIndex={0} aria-label={b.lang ? `Code (${b.lang})` : 'Code'}>
            <code>{b.v}</code>
          </pre>
        </figure>
      );
    case 'list': {
      const items = b.items.map((it, i) => (
        <li key={i} className={it.task === null ? undefined : 'md__task'}>
          {it.task !== null && (
            <span className="md__box" role="img" aria-label={it.task ? 'done' : 'not done'}>
              {it.task ? '☑' : '☐'}
            </span>
          )}
          {blocks(it.c, `${k}.${i}.`, true)}
        </li>
      ));
      return b.ordered ? (
        <ol key={k} start={b.start === 1 ? undefined : b.start}>
          {items}
        </ol>
      ) : (
        <ul key={k}>{items}</ul>
      );
    }
    case 'table':
      return (
        <div key={k} className="md__table" tabIndex={0} role="region" aria-label="Table">
          <table>
            <thead>
              <tr>
                {b.head.map((c, i) => (
                  <th key={i} style={b.align[i] ? { textAlign: b.align[i]! } : undefined}>
                    {inline(c)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {b.rows.map((r, j) => (
                <tr key={j}>
                  {r.map((c, i) => (
                    <td key={i} style={b.align[i] ? { textAlign: b.align[i]! } : undefined}>
                      {inline(c)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      );
  }
}

/** A list item of one paragraph shows its words without a <p> around them (tight lists). */
function blocks(list: readonly Block[], key: string, tight = false): ReactNode[] {
  if (tight && list.length === 1 && list[0]!.t === 'p') return inline(list[0]!.c, key);
  return list.map((b, i) => block(b, `${key}${i}`));
}

export function Markdown({ text, className }: { text: string; className?: string }) {
  const tree = useMemo(() => parseMarkdown(text), [text]);
  return <div className={`md ${className ?? ''}`}>{blocks(tree, '')}</div>;
}
