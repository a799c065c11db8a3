// Transient UI state (query text, view, toasts) and the theme choice, which is remembered in
// localStorage and read by components through src/ui/app/use-settings.ts. Data in the database
// never lives here: it reaches components through Dexie live queries.
import { create } from 'zustand';
import { formatRoute, parseRoute, route, type Route, type RouteView } from '../ui/app/routes';

export type View = RouteView;
export type ThemeChoice = 'system' | 'light' | 'dark';
export type ToastKind = 'info' | 'success' | 'error';

export interface Toast {
  id: number;
  kind: ToastKind;
  message: string;
  /** Error code when the toast reports an AppError (for tests and styling). */
  code?: string;
  /** One button beside the message (e.g. Undo after a delete); pressing it dismisses the toast. */
  action?: { label: string; run: () => void };
}

export interface UiState {
  view: View;
  query: string;
  theme: ThemeChoice;
  toasts: Toast[];
  setView(v: View): void;
  setQuery(q: string): void;
  setTheme(t: ThemeChoice): void;
  pushToast(t: Omit<Toast, 'id'>): number;
  dismissToast(id: number): void;
}

const THEME_KEY = 'mnemograph:theme';

function initialTheme(): ThemeChoice {
  try {
    const t = globalThis.localStorage?.getItem(THEME_KEY);
    if (t === 'light' || t === 'dark') return t;
  } catch {
    /* storage disabled: follow the system */
  }
  return 'system';
}

let nextToastId = 1;

/** The route in the address bar now (Memories when there is no window, e.g. in Node tests). */
export function currentRoute(): Route {
  return parseRoute(globalThis.location?.hash ?? '');
}

/** A person's step (a view, a recall, a memory opened or closed) becomes one history entry, so
 * Back and Forward retrace it; the same address again adds nothing. pushState fires no
 * hashchange, so the app does not re-apply what it just did. */
export function pushRoute(r: Route): void {
  const hash = formatRoute(r);
  if (!globalThis.history || !globalThis.location || globalThis.location.hash === hash) return;
  globalThis.history.pushState(null, '', hash);
}

export const useUi = create<UiState>((set) => ({
  view: 'memories',
  query: '',
  theme: initialTheme(),
  toasts: [],
  setView: (view) => {
    if (view !== currentRoute().view) pushRoute(route(view));
    set({ view });
  },
  setQuery: (query) => set({ query }),
  setTheme: (theme) => {
    try {
      if (theme === 'system') globalThis.localStorage?.removeItem(THEME_KEY);
      else globalThis.localStorage?.setItem(THEME_KEY, theme);
    } catch {
      /* the choice still holds for this page */
    }
    set({ theme });
  },
  // The same message again (four quick saves) does not stack: it replaces its earlier copy,
  // which moves to the end with a fresh id (so it stays up for its full time). At most 4 shown.
  pushToast: (t) => {
    const id = nextToastId++;
    set((s) => {
      const others = s.toasts.filter((x) => x.kind !== t.kind || x.message !== t.message);
      return { toasts: [...others.slice(-3), { ...t, id }] };
    });
    return id;
  },
  dismissToast: (id) => set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) })),
}));
