// The app's addresses: every view, recall query and opened memory has a URL, kept in the hash
// (`#/memories?m=<memoryId>`, `#/explore?q=…&profile=…&m=<memoryId>`, `#/data`, `#/models`, `#/trash`,
// `#/review`; the three memory lists take `m` too) so `vite preview` and the
// service worker's offline navigation (navigateFallback: index.html) serve every address without
// server rewrites. Pure: parse and format only; src/state/ui-store.ts pushes and follows them.
import { isCognitiveProfile, type CognitiveProfile } from '../../core/recall/profiles';

export type RouteView = 'memories' | 'graph' | 'data' | 'models' | 'trash' | 'review';

/** The views that list memories and open one by `m` (the Memories tab and its Trash and Review). */
export const KEEP_VIEWS: readonly RouteView[] = ['memories', 'trash', 'review'];

export interface Route {
  view: RouteView;
  /** Explore only: the recall query ('' = none). */
  q: string;
  /** Explore only: the profile picked for that recall (null = the saved default). */
  profile: CognitiveProfile | null;
  /** Explore, Memories, Trash, Review: the memory open in the panel. */
  m: string | null;
}

// The Explore tab is the 'graph' view inside the app; its address says what the person sees.
const SEGMENT: Record<RouteView, string> = { memories: 'memories', graph: 'explore', data: 'data', models: 'models', trash: 'trash', review: 'review' };
const BY_SEGMENT: Record<string, RouteView> = { memories: 'memories', explore: 'graph', data: 'data', models: 'models', trash: 'trash', review: 'review' };

/** Longest query / id kept from an address: a pasted novel does not become a recall. */
const MAX_PARAM = 2000;

export function route(view: RouteView, explore: Partial<Omit<Route, 'view'>> = {}): Route {
  return { view, q: explore.q ?? '', profile: explore.profile ?? null, m: explore.m ?? null };
}

function decode(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return null; // malformed percent-encoding (e.g. "%E0%A4%A"): the parameter is ignored
  }
}

function params(search: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const pair of search.split('&')) {
    if (!pair) continue;
    const eq = pair.indexOf('=');
    const key = decode(eq < 0 ? pair : pair.slice(0, eq));
    const value = decode(eq < 0 ? '' : pair.slice(eq + 1));
    if (key === null || value === null || out.has(key)) continue; // the first of a repeated key wins
    out.set(key, value.slice(0, MAX_PARAM));
  }
  return out;
}

/** Reads a location hash ("#/explore?q=bread"); anything unknown falls back to the Memories view. */
export function parseRoute(hash: string): Route {
  const body = hash.replace(/^#/, '').replace(/^\/+/, '');
  const qi = body.indexOf('?');
  const path = (qi < 0 ? body : body.slice(0, qi)).replace(/\/+$/, '').toLowerCase();
  const view = Object.prototype.hasOwnProperty.call(BY_SEGMENT, path) ? BY_SEGMENT[path]! : 'memories';
  const p = params(qi < 0 ? '' : body.slice(qi + 1));
  const m = p.get('m')?.trim();
  if (KEEP_VIEWS.includes(view)) return route(view, { m: m ? m : null });
  if (view !== 'graph') return route(view);
  const profile = p.get('profile')?.toUpperCase();
  return route('graph', {
    q: p.get('q')?.trim() ?? '',
    profile: isCognitiveProfile(profile) ? profile : null,
    m: m ? m : null,
  });
}

/** Writes a route as a hash; parseRoute(formatRoute(r)) gives r back for every valid route. */
export function formatRoute(r: Route): string {
  const path = `#/${SEGMENT[r.view]}`;
  if (KEEP_VIEWS.includes(r.view)) return r.m ? `${path}?m=${encodeURIComponent(r.m)}` : path;
  if (r.view !== 'graph') return path;
  const parts: string[] = [];
  if (r.q.trim()) parts.push(`q=${encodeURIComponent(r.q.trim())}`);
  if (r.q.trim() && r.profile) parts.push(`profile=${r.profile}`); // a profile only means something with a query
  if (r.m) parts.push(`m=${encodeURIComponent(r.m)}`);
  return parts.length ? `${path}?${parts.join('&')}` : path;
}
