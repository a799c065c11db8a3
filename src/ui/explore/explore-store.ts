// Transient state of the Explore view (zustand): the query box, the recall options picked for this
// page, the open memory and which dialogs are open. Persisted things (memories, settings, feedback)
// live in the database and are read through the services.
import { create } from 'zustand';
import type { RecallOptionsInput } from '../../core/recall';
import type { MemoryId } from '../../core/types';
import type { GraphDepth, MemoryKind } from '../graph';

export interface ExploreState {
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
  open(id: MemoryId | null): void;
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

export const useExplore = create<ExploreState>((set) => ({
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
  open: (openId) => set({ openId }),
  setSettingsOpen: (settingsOpen) => set({ settingsOpen }),
  setShowTags: (showTags) => set({ showTags }),
  setDepth: (depth) => set({ depth }),
  setKind: (kind) => set({ kind }),
  setTagFilter: (tagFilter) => set({ tagFilter }),
}));
