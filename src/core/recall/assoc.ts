// Associative multi-hop retrieval. From each direct (standard) result, walk to its nearest
// memories by cosine, up to `assocHops` hops, `beamWidth` children per expanded node. The
// associative-retrieval design's v1 values: at most 3 hops, beam 2 per node, a step only to a
// neighbour with cosine >= 0.72, decay 0.8^hop, no memory visited twice; the feature is off by
// default, and off leaves the output unchanged.
//
// Score blend: a child's score = parentScore * cosine(parent, child) * hopDecay * scopeFactor.
// Applied step by step this compounds to rootScore * Π cosines * hopDecay^hop: the design's
// associative score from the cosine to the parent, the parent's score and a decay of 0.8^hop.
// (Multiplying by hopDecay^hop at EVERY step would compound to 0.8^(1+2+..+hop), which is not the
// design's 0.8^hop.)
// Scope (the design prefers same-scope neighbours to cross-scope ones; our scope is the session):
// a neighbour in another session than its parent gets scopeFactor CROSS_SCOPE_PENALTY (0.9)
// both in the beam choice (cos * 0.9) and in its score, so same-session neighbours win among near
// equals; a clearly closer cross-session memory can still be chosen. Unknown sessions: factor 1.
// Merge (the design's rule): final = max(direct, assoc) when a walk reaches a memory from the
// engine's wider candidate pool (`pool`); such a memory is shown as 'associative' with its chain and its own explanation.
// Determinism: the frontier is processed in score desc, id asc order; a child reachable from two
// parents on the same hop is claimed by the first (best) parent; neighbour ties break by id asc.
// Bounds: a hop expands at most |frontier| nodes and adds at most beamWidth per node, so at most
// seeds * Σ_{h<hops} beam^h scans (<= seeds * beam^hops for beam >= 2) and
// seeds * Σ_{1<=h<=hops} beam^h added results.

import type { MatchExplanation, MemoryId, ScoredHit } from '../types';
import { compareRanked } from './heap';
import { CROSS_SCOPE_PENALTY } from './scope';
import type { NeighbourMatrix } from './matrix';
import { normalised, rowDot } from './matrix';
import type { RecallOptions } from './options';
import type { ChainLink, RecallResult } from './types';

export { CROSS_SCOPE_PENALTY } from './scope';

export type AssocOptions = Pick<RecallOptions, 'assocHops' | 'beamWidth' | 'minCosine' | 'hopDecay'>;

export interface AssocSource {
  matrix: NeighbourMatrix;
  /** False = never reached (archived / quarantined unless asked, deleted, suppressed). Default: all. */
  eligible?: (id: MemoryId) => boolean;
  /**
   * `eligible` for every row at once: sets closed[row] = 1 for each row it would refuse (the
   * pipeline's memory table: typed columns instead of a lookup per memory). Given: used instead.
   */
  closeIneligible?: (closed: Uint8Array) => void;
  /** The engine's wider standard pool, for final = max(direct, assoc). */
  pool?: ReadonlyMap<MemoryId, ScoredHit>;
  /** When given, associative results carry their cosine to the query in `why.cosine`. */
  queryVector?: Float32Array;
  /**
   * Neighbours from an index over the same rows (src/core/vectors NeighbourLists.pick): the scan's
   * answer, or null when it cannot certify it (then the full scan runs). Absent: the full scan.
   */
  neighbours?: (parent: number, k: number, minCos: number, closed: Uint8Array) => [number, number, number][] | null;
}

export interface AssocOutcome {
  results: RecallResult[];
  /** Neighbour scans performed (one pass over the matrix each). */
  expanded: number;
  /** Associative results added. */
  added: number;
}

interface Node {
  id: MemoryId;
  row: number;
  score: number;
  chain: ChainLink[];
}

const byScoreThenId = (a: { id: string; score: number }, b: { id: string; score: number }) => compareRanked(a, b);

/**
 * One pass over the matrix: the best `k` unvisited, eligible rows by cos * scopeFactor with
 * cos >= minCosine, ties by id asc. Returns [row, cos, factor] triples, best first.
 */
function scan(
  m: NeighbourMatrix,
  parent: number,
  k: number,
  minCos: number,
  closed: Uint8Array,
): [number, number, number][] {
  const { data, dim, ids, scope } = m;
  const n = ids.length;
  const p = data.subarray(parent * dim, parent * dim + dim);
  const pScope = scope[parent];
  const best: [number, number, number, number][] = []; // row, cos, factor, key
  const d4 = dim - (dim % 4);
  for (let i = 0; i < n; i++) {
    if (closed[i]) continue;
    const base = i * dim;
    // 4 accumulators: ~2x faster than one in V8; the summation order is fixed, so results are deterministic
    let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
    let j = 0;
    for (; j < d4; j += 4) {
      const b = base + j;
      s0 += p[j] * data[b];
      s1 += p[j + 1] * data[b + 1];
      s2 += p[j + 2] * data[b + 2];
      s3 += p[j + 3] * data[b + 3];
    }
    for (; j < dim; j++) s0 += p[j] * data[base + j];
    const s = s0 + s1 + (s2 + s3);
    if (!(s >= minCos)) continue;
    // penalise only a known crossing: unknown scopes express no preference
    const f = pScope === -1 || scope[i] === -1 || scope[i] === pScope ? 1 : CROSS_SCOPE_PENALTY;
    const key = s * f;
    if (best.length === k) {
      const w = best[k - 1];
      if (key < w[3] || (key === w[3] && ids[i] > ids[w[0]])) continue;
    }
    let at = best.length < k ? best.length : k - 1;
    if (best.length < k) best.push([i, s, f, key]);
    else best[at] = [i, s, f, key];
    // insertion: move up while it ranks before its predecessor
    while (at > 0) {
      const a = best[at];
      const b = best[at - 1];
      if (a[3] > b[3] || (a[3] === b[3] && ids[a[0]] < ids[b[0]])) {
        best[at] = b;
        best[at - 1] = a;
        at--;
      } else break;
    }
  }
  return best.map(([r, c, f]) => [r, c, f]);
}

export function associate(ranked: readonly RecallResult[], src: AssocSource, opts: AssocOptions): AssocOutcome {
  if (opts.assocHops <= 0) return { results: ranked as RecallResult[], expanded: 0, added: 0 };
  const m = src.matrix;
  const n = m.ids.length;
  // closed = visited or ineligible: the scan skips both with one byte test
  const closed = new Uint8Array(n);
  if (src.closeIneligible) src.closeIneligible(closed);
  else if (src.eligible) for (let i = 0; i < n; i++) if (!src.eligible(m.ids[i])) closed[i] = 1;
  for (const r of ranked) {
    const row = m.indexOf.get(r.id);
    if (row !== undefined) closed[row] = 1;
  }

  let frontier: Node[] = [];
  for (const r of ranked) {
    if (r.mode !== 'standard') continue;
    const row = m.indexOf.get(r.id);
    if (row === undefined) continue; // no vector: cannot be expanded
    frontier.push({ id: r.id, row, score: r.score, chain: [{ id: r.id, hop: 0, cosine: r.why.cosine }] });
  }
  frontier.sort(byScoreThenId);

  const q = src.queryVector && src.queryVector.length === m.dim ? normalised(src.queryVector) : null;
  const found: Node[] = [];
  let expanded = 0;
  for (let hop = 1; hop <= opts.assocHops && frontier.length > 0; hop++) {
    const next: Node[] = [];
    for (const node of frontier) {
      expanded++;
      const picked = src.neighbours?.(node.row, opts.beamWidth, opts.minCosine, closed) ?? scan(m, node.row, opts.beamWidth, opts.minCosine, closed);
      for (const [row, cos, f] of picked) {
        closed[row] = 1;
        const id = m.ids[row];
        const child: Node = {
          id,
          row,
          score: node.score * cos * opts.hopDecay * f,
          chain: [...node.chain, { id, hop, cosine: cos }],
        };
        next.push(child);
        found.push(child);
      }
    }
    frontier = next.sort(byScoreThenId);
  }

  const assoc: RecallResult[] = found.map((nd) => {
    const direct = src.pool?.get(nd.id);
    const why: MatchExplanation = direct
      ? direct.why
      : { lexical: 0, semantic: 0, bm25: 0, cosine: q ? rowDot(m, nd.row, q) : 0, matchedTerms: [] };
    return {
      id: nd.id,
      score: direct ? Math.max(direct.score, nd.score) : nd.score,
      mode: 'associative',
      why,
      chain: nd.chain,
    };
  });
  const head: RecallResult[] = [];
  const tail: RecallResult[] = [];
  for (const r of ranked) (r.mode === 'lateral' ? tail : head).push(r);
  const results = [...head, ...assoc].sort(byScoreThenId).concat(tail);
  return { results, expanded, added: assoc.length };
}
