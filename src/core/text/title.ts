// A memory's title as people read it in lists, dialogs and the graph: its first line that says
// something. A Markdown code fence's opening line ("```js") or a heading's marks ("## ") say
// nothing on their own, so a snippet is titled by its first line of code and a note by its
// heading's words. The text itself is never changed.

const FENCE = /^(`{3,}|~{3,})[^`]*$/;

/** A Markdown code fence's opening or closing line ("```js", "~~~"), trimmed or not. */
export function isFenceLine(line: string): boolean {
  return FENCE.test(line.trim());
}

/** The first line with words, at most `max` characters (an ellipsis when cut); '' when there is none. */
export function titleLine(text: string, max = 80): string {
  let line = '';
  for (const raw of text.split(/\r\n?|\n/)) {
    const t = raw.trim();
    if (!t || isFenceLine(t)) continue;
    line = t.replace(/^#{1,6}\s+/, '').trim();
    if (line) break;
  }
  return line.length > max ? `${line.slice(0, max - 1).trimEnd()}…` : line;
}
