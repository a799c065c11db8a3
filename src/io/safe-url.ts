// Links are data, never code. The UI renders a link only through safeUrl (an allow-list); the
// importers drop a `source` that is a script or inline-data link (a deny-list, since a source may
// be plain words such as "Notebook, p. 12") and say so.

const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/**
 * The URL to put in an href, or null. Only http, https and mailto pass; relative or unparsable
 * text, and every other scheme (javascript:, data:, vbscript:, file:, blob: ...) give null. The
 * WHATWG parser drops the tabs, newlines and leading controls a browser would also drop, so
 * "java\tscript:" is judged as the browser would run it.
 */
export function safeUrl(url: unknown): string | null {
  if (typeof url !== 'string' || url.length > 8192) return null;
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return null; // not an absolute URL: nothing to link to
  }
  return SAFE_PROTOCOLS.has(parsed.protocol) ? parsed.href : null;
}

/** Schemes that run code or smuggle content when followed. */
const DANGEROUS = /^(javascript|data|vbscript):/;

/**
 * True when text would be a dangerous link if a browser followed it: whitespace and control
 * characters are removed first (browsers ignore them inside a scheme) and case is ignored.
 */
export function isDangerousLink(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  const squeezed = text.slice(0, 64).replace(/[\u0000-\u0020\u007f-\u00a0\u200b-\u200d\ufeff]/g, '').toLowerCase();
  return DANGEROUS.test(squeezed);
}

export const UNSAFE_SOURCE_NOTE = 'A script or inline-data link was dropped from the source.';
