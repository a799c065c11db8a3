// Plain text: one memory per non-empty line, or per paragraph (lines separated by a blank line).
// The words are kept exactly; only the line break that ends a line is removed.

import { admit, guard, problem, type ImportResult } from './result';
import { cleanSource } from './draft';
import { decodeText, INVALID_UTF8_NOTE } from './text';

export interface PlainTextOptions {
  split: 'line' | 'paragraph';
  /** Shown in errors. */
  file?: string;
  /** Given to every memory (e.g. the file's name as a tag). */
  tags?: string[];
  source?: string;
  /** Epoch ms for every memory (the file's date); now at write time when absent. */
  createdAt?: number;
}

export function importPlainText(input: string | Uint8Array, opts: PlainTextOptions): ImportResult {
  return guard({ file: opts.file }, (out) => {
    const { text, invalidUtf8 } = decodeText(input);
    if (invalidUtf8) out.errors.push(problem({ file: opts.file }, INVALID_UTF8_NOTE, 'note'));
    const lines = text.split(/\r\n|\r|\n/);
    const at = (line: number) => ({ file: opts.file, line });
    const emit = (body: string, line: number) => {
      const source = cleanSource(opts.source, at(line), out);
      admit({ text: body, tags: opts.tags, source, createdAt: opts.createdAt }, at(line), out);
    };
    if (opts.split === 'line') {
      lines.forEach((l, i) => {
        if (l.trim()) emit(l, i + 1);
      });
      return;
    }
    let start = -1;
    for (let i = 0; i <= lines.length; i++) {
      const blank = i === lines.length || !lines[i].trim();
      if (!blank && start < 0) start = i;
      if (blank && start >= 0) {
        emit(lines.slice(start, i).join('\n'), start + 1);
        start = -1;
      }
    }
  });
}
