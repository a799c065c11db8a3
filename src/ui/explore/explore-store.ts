// Transient state of the Explore view (zustand): the query box, the recall options picked for this
// page, the open memory and which dialogs are open. Persisted things (memories, settings, feedback)
// live in the database and are read through the services.
import { create } from 'zustand';
import type { RecallOptionsInput } from '../../core/recall';
import type { MemoryId } from '../../core/types';
import type { CognitiveProfile } from '../../core/recall/profiles';
import { pushRoute } from '../../state/ui-store';
import { route, type Route } from '../app/routes';
import type { GraphDepth, MemoryKind } from '../graph';

/** The recall the address names: the Explore view runs it when it differs from what it shows. */
export interface RoutedRecall {
  q: string;
  profile: CognitiveProfile | null;
}

export interface ExploreState {
  /** The recall in the address bar (null: none), set by a person's Recall or by the address. */
  recalled: RoutedRecall | null;
  query: string;
  /** Optional query tags for lateral overlap ("a, b"); empty = derived from the top results. */
  tags: string;
  /** Options for this page's recalls, over the saved defaults (unset = default). */
  options: RecallOptionsInput;
  openId: MemoryId | null;
  settingsOpen: boolean;
  showTags: boolean;
  /** Graph view: memory hops from the query shown (4 = a whole three-hop chain). */
  depth: GraphDepth;
  /** Graph view: which kinds of result are shown ('all' = every kind). */
  kind: MemoryKind | 'all';
  /** Graph view: only results carrying this tag ('' = any). */
  tagFilter: string;
  setQuery(q: string): void;
  setTags(t: string): void;
  patchOptions(p: RecallOptionsInput): void;
  /** Opens (or with null closes) a memory; a history entry, so Back closes it again. */
  open(id: MemoryId | null): void;
  /** A person ran a recall: its address becomes a history entry. */
  noteRecall(q: string, profile: CognitiveProfile | null): void;
  /** The address changed (Back, Forward, a link, a reload): the page follows it. */
  applyRoute(r: Route): void;
  setSettingsOpen(open: boolean): void;
  setShowTags(show: boolean): void;
  setDepth(depth: GraphDepth): void;
  setKind(kind: MemoryKind | 'all'): void;
  setTagFilter(tag: string): void;
}

/** Merges a RecallOptionsPanel change: `undefined` drops the key (back to the profile default). */
export function mergeOptions(base: RecallOptionsInput, patch: RecallOptionsInput): RecallOptionsInput {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(patch)) {
    if (v === undefined) delete out[k];
    else out[k] = v;
  }
  return out as RecallOptionsInput;
}

export const useExplore = create<ExploreState>((set, get) => ({
  recalled: null,
  query: '',
  tags: '',
  options: {},
  openId: null,
  settingsOpen: false,
  showTags: false,
  depth: 4,
  kind: 'all',
  tagFilter: '',
  setQuery: (query) => set({ query }),
  setTags: (tags) => set({ tags }),
  patchOptions: (p) => set((s) => ({ options: mergeOptions(s.options, p) })),
  open: (openId) => {
    const r = get().recalled;
    pushRoute(route('graph', { q: r?.q, profile: r?.profile, m: openId }));
    set({ openId });
  },
  noteRecall: (q, profile) => {
    pushRoute(route('graph', { q, profile }));
    set({ recalled: { q, profile }, openId: null });
  },
  applyRoute: (r) =>
    set((s) => {
      if (!r.q) return { openId: r.m, recalled: null };
      const same = s.recalled?.q === r.q && s.recalled.profile === r.profile;
      return {
        openId: r.m,
        query: r.q,
        options: mergeOptions(s.options, { profile: r.profile ?? undefined }),
        recalled: same ? s.recalled : { q: r.q, profile: r.profile },
      };
    }),
  setSettingsOpen: (settingsOpen) => set({ settingsOpen }),
  setShowTags: (showTags) => set({ showTags }),
  setDepth: (depth) => set({ depth }),
  setKind: (kind) => set({ kind }),
  setTagFilter: (tagFilter) => set({ tagFilter }),
}));
