// YAML front matter: the block between a first line `---` and the next `---` (or `...`) line.
// Read with the `yaml` package (YAML 1.2 core schema: dates stay strings, no custom tags run;
// aliases capped so a "billion laughs" file cannot blow up). Written as one `key: <JSON value>`
// per line: JSON scalars and arrays are valid YAML, so any reader, Obsidian included, reads them.

import { parseDocument } from 'yaml';

export interface FrontMatterSplit {
  /** The YAML text, or null when the file has no front matter. */
  yaml: string | null;
  body: string;
  /** 1-based line of the body's first line. */
  bodyLine: number;
}

export function splitFrontMatter(text: string): FrontMatterSplit {
  const open = /^---[ \t]*\r?\n/.exec(text);
  if (!open) return { yaml: null, body: text, bodyLine: 1 };
  const close = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/m;
  close.lastIndex = 0;
  const rest = text.slice(open[0].length);
  const m = close.exec(rest);
  if (!m) return { yaml: null, body: text, bodyLine: 1 }; // no closing line: not front matter
  const yaml = rest.slice(0, m.index);
  const body = rest.slice(m.index + m[0].length);
  const bodyLine = 2 + (yaml.match(/\n/g)?.length ?? 0) + (m[0].endsWith('\n') ? 1 : 0);
  return { yaml, body, bodyLine };
}

export type FrontMatter = Record<string, unknown>;

/** The front matter as a plain object, or an error message. A top-level list or scalar is an error. */
export function parseFrontMatter(yaml: string): { ok: true; data: FrontMatter } | { ok: false; message: string } {
  if (yaml.length > 1 << 20) return { ok: false, message: 'the front matter is larger than 1 MB' };
  const doc = parseDocument(yaml, { schema: 'core', uniqueKeys: false, prettyErrors: false });
  if (doc.errors.length) return { ok: false, message: doc.errors[0].message.split('\n')[0] };
  const data: unknown = doc.toJS({ maxAliasCount: 100 });
  if (data === null || data === undefined) return { ok: true, data: {} };
  if (typeof data !== 'object' || Array.isArray(data)) return { ok: false, message: 'the front matter is not a list of key: value lines' };
  return { ok: true, data: data as FrontMatter };
}

export type FrontMatterValue = string | number | boolean | null | readonly string[];

/** `---\nkey: value\n---\n` with JSON-quoted values, keys in the given order, undefined left out. */
export function emitFrontMatter(fields: Record<string, FrontMatterValue | undefined>): string {
  const lines = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
  return `---\n${lines.join('\n')}\n---\n`;
}
