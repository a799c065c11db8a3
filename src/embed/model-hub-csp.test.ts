// The one network destination outside the app's origin, kept to its purpose: the CSP's
// connect-src lets the hub in (and, beside it, only the loopback hosts of issue 11), and only the model manager's download names it.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CSP_HEADER, CSP_META, LOOPBACK_SOURCES, MODEL_HUB_ORIGINS } from '../../vite.config';
import { HUB_BASE_URL } from './catalogue';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return n === 'testing' ? [] : sources(p);
    return /\.(ts|tsx)$/.test(n) && !/\.test\.tsx?$/.test(n) ? [p] : [];
  });
}

describe('connect-src and the model hub', () => {
  it('allows the app’s origin, the hub (its file hosts included) and the loopback model hosts, nothing else', () => {
    for (const csp of [CSP_META, CSP_HEADER]) {
      const connect = csp.split('; ').find((d) => d.startsWith('connect-src '))!;
      // issue 11 added the loopback hosts of the person's own language model (src/core/query/endpoint.ts)
      expect(connect.split(' ').slice(1)).toEqual(["'self'", ...MODEL_HUB_ORIGINS, ...LOOPBACK_SOURCES]);
    }
    for (const o of LOOPBACK_SOURCES) expect(o).toMatch(/^https?:\/\/(localhost|127\.0\.0\.1):\*$/);
    expect(MODEL_HUB_ORIGINS).toContain(new URL(HUB_BASE_URL).origin);
    for (const o of MODEL_HUB_ORIGINS) expect(o).toMatch(/^https:\/\/(\*\.)?(huggingface\.co|hf\.co)$/);
  });

  it('images come only from the app and from object URLs of its own stored pictures (issue 12)', () => {
    for (const csp of [CSP_META, CSP_HEADER]) expect(csp.split('; ').find((d) => d.startsWith('img-src '))).toBe("img-src 'self' blob:");
  });

  it('only the catalogue names a hub URL, and only the models service hands it to the download', () => {
    const root = process.cwd();
    const files = [...sources(join(root, 'src')), ...sources(join(root, 'workers'))];
    // a hub URL in code (comments aside; the model manager's text may name the site in words)
    const naming = files.filter((f) => /https?:\/\/[\w.-]*(huggingface\.co|hf\.co)/.test(readFileSync(f, 'utf8').replace(/^\s*(\/\/|\/?\*).*$/gm, '')));
    expect(naming.map((f) => f.slice(root.length + 1))).toEqual(['src/embed/catalogue.ts']);
    const using = files.filter((f) => /\bHUB_BASE_URL\b/.test(readFileSync(f, 'utf8').replace(/^\s*(\/\/|\/?\*).*$/gm, ''))).map((f) => f.slice(root.length + 1));
    expect(using.sort()).toEqual(['src/embed/catalogue.ts', 'src/services/models.ts']);
  });
});
