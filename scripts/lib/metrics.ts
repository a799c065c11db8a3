// Ranking metrics over the top k, binary relevance. `ranked` may hold more than k ids;
// only the first k count. Duplicated ids in `ranked` are credited once (first position).

export function recallAt(ranked: readonly string[], relevant: readonly string[], k: number): number {
  if (relevant.length === 0) return 0;
  const rel = new Set(relevant);
  const found = new Set<string>();
  for (const id of ranked.slice(0, k)) if (rel.has(id)) found.add(id);
  return found.size / rel.size;
}

/** nDCG@k with binary gains: DCG = sum 1 / log2(rank + 1); ideal puts all relevant first. */
export function ndcgAt(ranked: readonly string[], relevant: readonly string[], k: number): number {
  const rel = new Set(relevant);
  if (rel.size === 0) return 0;
  const seen = new Set<string>();
  let dcg = 0;
  ranked.slice(0, k).forEach((id, i) => {
    if (rel.has(id) && !seen.has(id)) {
      seen.add(id);
      dcg += 1 / Math.log2(i + 2);
    }
  });
  let idcg = 0;
  for (let i = 0; i < Math.min(k, rel.size); i++) idcg += 1 / Math.log2(i + 2);
  return dcg / idcg;
}

/** 1 / rank of the first relevant id within the top k, else 0. */
export function mrrAt(ranked: readonly string[], relevant: readonly string[], k: number): number {
  const rel = new Set(relevant);
  const top = ranked.slice(0, k);
  for (let i = 0; i < top.length; i++) if (rel.has(top[i])) return 1 / (i + 1);
  return 0;
}

/** 1 when the first result is relevant, else 0 (top-1 accuracy per query). */
export function top1At(ranked: readonly string[], relevant: readonly string[]): number {
  return ranked.length > 0 && relevant.includes(ranked[0]) ? 1 : 0;
}

export function mean(xs: readonly number[]): number {
  return xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length;
}

/** Nearest-rank percentile (p in (0, 100]); 0 for an empty list. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length, Math.max(1, rank)) - 1];
}

/** The median (mean of the two middle values for an even count); 0 for an empty list. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}
