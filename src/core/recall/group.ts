// SYSTEMATIZER grouping: each result's key is its "primary tag" — of its own tags (accepted, or
// suggested when it has none), the one most frequent across the whole result list (ties: tag asc).
// Groups are ordered by their best result (score desc, then key asc); results keep their order.

import type { MemoryId } from '../types';
import type { RecallDoc, RecallResult } from './types';

export const UNTAGGED_GROUP = '(untagged)';

export interface ResultGroup {
  key: string;
  results: RecallResult[];
}

function tagsOf(d: RecallDoc | undefined): readonly string[] {
  if (!d) return [];
  return d.tags.length > 0 ? d.tags : (d.suggestedTags ?? []);
}

/** Copies of the results with `group` set. */
export function assignGroups(results: readonly RecallResult[], docOf: (id: MemoryId) => RecallDoc | undefined): RecallResult[] {
  const freq = new Map<string, number>();
  const own = results.map((r) => [...new Set(tagsOf(docOf(r.id)))]);
  for (const ts of own) for (const t of ts) freq.set(t, (freq.get(t) ?? 0) + 1);
  return results.map((r, i) => {
    let best: string | null = null;
    for (const t of own[i]) {
      const f = freq.get(t)!;
      const bf = best === null ? -1 : freq.get(best)!;
      if (f > bf || (f === bf && best !== null && t < best)) best = t;
    }
    return { ...r, group: best ?? UNTAGGED_GROUP };
  });
}

export function groupResults(results: readonly RecallResult[]): ResultGroup[] {
  const groups = new Map<string, ResultGroup>();
  for (const r of results) {
    const key = r.group ?? UNTAGGED_GROUP;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, results: [] }));
    g.results.push(r);
  }
  const best = (g: ResultGroup) => Math.max(...g.results.map((r) => r.score));
  return [...groups.values()].sort((a, b) => best(b) - best(a) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
