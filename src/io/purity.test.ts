// src/io runs in a worker and in Node: it may use the core and its three small libraries, never
// the DOM, the database, the UI, the services or a worker runtime. This test is that rule.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ALLOWED_PACKAGES = new Set(['valibot', 'fflate', 'yaml']);
const FORBIDDEN_GLOBAL = /\b(window|document|indexedDB|localStorage|navigator|DOMParser)\b/;

const sources = readdirSync(__dirname).filter((f) => /\.ts$/.test(f) && !/\.test\.ts$/.test(f) && f !== 'property-helpers.ts');

function importsOf(text: string): string[] {
  return [...text.matchAll(/\bfrom\s+['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]/g)].map((m) => m[1] ?? m[2]);
}

function allowed(spec: string): boolean {
  if (spec.startsWith('./')) return !spec.includes('/', 2);
  if (spec.startsWith('../')) return /^\.\.\/core\//.test(spec);
  return ALLOWED_PACKAGES.has(spec);
}

describe('src/io is pure', () => {
  it('has sources to check', () => {
    expect(sources.length).toBeGreaterThan(10);
  });
  it.each(sources)('%s imports only the core, its siblings, valibot, fflate and yaml', (file) => {
    const text = readFileSync(join(__dirname, file), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
    expect(importsOf(text).filter((s) => !allowed(s))).toEqual([]);
    expect(text).not.toMatch(FORBIDDEN_GLOBAL);
  });
  it('the rule catches a violation', () => {
    expect(allowed('../db/schema')).toBe(false);
    expect(allowed('dexie')).toBe(false);
    expect(allowed('node:fs')).toBe(false);
    expect(allowed('../core/validate')).toBe(true);
    expect('new DOMParser()').toMatch(FORBIDDEN_GLOBAL);
  });
});
