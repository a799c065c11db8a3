// Transient state of the memory lists (zustand): the open memory (mirrored in the address), the
// Memories view's filters and sort, and the selection. Memories themselves are read through the
// services (keep-api.ts), never kept here.
import { create } from 'zustand';
import type { MemoryId } from '../../core/types';
import { pushRoute, useUi } from '../../state/ui-store';
import { KEEP_VIEWS, route, type Route, type RouteView } from '../app/routes';
import type { BrowseQuery } from './keep-api';

export interface KeepState {
  openId: MemoryId | null;
  /** The opened memory is being edited. */
  editing: boolean;
  filters: BrowseQuery;
  selected: ReadonlySet<MemoryId>;
  /** Opens (null closes) a memory in the current list view; a history entry, so Back closes it. */
  open(id: MemoryId | null, opts?: { edit?: boolean }): void;
  setEditing(editing: boolean): void;
  applyRoute(r: Route): void;
  patchFilters(p: Partial<BrowseQuery>): void;
  clearFilters(): void;
  /** Adds the tag to the tag filter, or takes it out when it is there. */
  toggleTag(tag: string): void;
  toggleSelected(id: MemoryId): void;
  selectMany(ids: readonly MemoryId[]): void;
  clearSelection(): void;
}

/** Merges a filter change: `undefined` (or an empty list) drops the key. */
export function mergeFilters(base: BrowseQuery, patch: Partial<BrowseQuery>): BrowseQuery {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined || v === '' || (Array.isArray(v) && v.length === 0)) delete out[k];
    else out[k] = v;
  }
  return out as BrowseQuery;
}

/** How many filters are set (sort is not a filter). */
export function activeFilterCount(f: BrowseQuery): number {
  return Object.keys(f).filter((k) => k !== 'sort' && !(k === 'status' && f.status === 'current')).length;
}

function listView(): RouteView {
  const v = useUi.getState().view;
  return KEEP_VIEWS.includes(v) ? v : 'memories';
}

export const useKeep = create<KeepState>((set) => ({
  openId: null,
  editing: false,
  filters: {},
  selected: new Set(),
  open: (id, opts) => {
    const view = listView();
    pushRoute(route(view, { m: id }));
    if (useUi.getState().view !== view) useUi.setState({ view });
    set({ openId: id, editing: !!opts?.edit && id !== null });
  },
  setEditing: (editing) => set({ editing }),
  applyRoute: (r) => set((s) => (s.openId === r.m ? {} : { openId: r.m, editing: false })),
  patchFilters: (p) => set((s) => ({ filters: mergeFilters(s.filters, p), selected: new Set() })),
  clearFilters: () => set((s) => ({ filters: s.filters.sort ? { sort: s.filters.sort } : {}, selected: new Set() })),
  toggleTag: (tag) =>
    set((s) => {
      const now = s.filters.tags ?? [];
      const tags = now.includes(tag) ? now.filter((t) => t !== tag) : [...now, tag];
      return { filters: mergeFilters(s.filters, { tags }), selected: new Set() };
    }),
  toggleSelected: (id) =>
    set((s) => {
      const next = new Set(s.selected);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return { selected: next };
    }),
  selectMany: (ids) => set((s) => ({ selected: new Set([...s.selected, ...ids]) })),
  clearSelection: () => set({ selected: new Set() }),
}));
