// Candidate expansion of the deep-search design (seed 003, B): beyond the primary results, three
// strategies, each from the primary's best results (the seeds):
//   temporal   the turns either side of a seed in its session (±turnWindow), then the turns of the
//              adjacent sessions nearest in time to it
//   entity     one hop over the memory-entity graph (src/core/entities expandByEntities)
//   community  members of the seed's community (Louvain over nearest-neighbour + entity edges,
//              computed in the engine worker), nearest in time first
//   meaning    (when given) the memories nearest the query by the judge (a stronger encoder), best
//              first: not from a seed but from the question
//   rule       (when given) the person's constraint memories ("never book meetings on Fridays"), every
//              one in scope, pooled right after the primary results and before the turn-taking (at
//              most `rules`): the merge surfaces a rule only when the reader finds it relevant, so a
//              rule sharing no session, name or group with the results must still be read
// The strategies take turns (temporal, entity, community, ...) so each gets its share of the pool;
// the pool (primary results read + expansion) is capped (default 50). Every candidate passes the
// query's scope: the status gate (isRecallable: never deleted; archived / quarantined only when the
// query asked) and asOf (validFrom <= asOf < validTo). Pure and deterministic.

import { expandByEntities, type EntityLookup } from '../entities';
import { isRecallable, type StatusGate } from '../status';
import type { MemoryId, MemoryStatus } from '../types';

export type ExpansionStrategy = 'temporal' | 'entity' | 'community' | 'meaning' | 'rule';

/** What expansion reads about one memory. */
export interface PoolDoc {
  id: MemoryId;
  sessionId: string;
  createdAt: number;
  status: MemoryStatus;
  deletedAt?: number | null;
  validFrom: number;
  validTo: number | null;
}

export interface ExpansionSource {
  /** Every memory (any status: the scope gate filters). */
  docs: readonly PoolDoc[];
  entities?: EntityLookup;
  /** Community of a memory (absent = no community strategy). */
  communityOf?: (id: MemoryId) => number | undefined;
  /**
   * Memories nearest the query by another measure than the primary ranking's (the judge's cosine
   * over every memory, judge-reader.ts), best first: the `meaning` strategy (absent = none).
   */
  nearest?: readonly MemoryId[];
  /** The constraint memories (any status: the scope gate filters), read whatever the seeds: the `rule` strategy. */
  constraints?: readonly MemoryId[];
}

export interface Scope extends StatusGate {
  /** Point-in-time read (epoch ms). */
  asOf?: number;
}

export interface ExpandPoolOptions {
  /** Pool cap, the primary results included (default 50). */
  cap?: number;
  /** Primary results used as seeds (default 5). */
  seeds?: number;
  /** Turns either side of a seed in its session (default 2). */
  turnWindow?: number;
  /** Turns taken from each adjacent session (default 2). */
  adjacentTurns?: number;
  /** Constraint memories pooled at most (default 10), newest first past that. */
  rules?: number;
}

export interface PoolEntry {
  id: MemoryId;
  /** Primary result (rank 0-based), or found by expansion. */
  primaryRank: number | null;
  via: { strategy: ExpansionStrategy; seed: MemoryId; detail: string }[];
}

/** The query's scope: the one status gate, then asOf. */
export function inScope(d: PoolDoc | undefined, scope: Scope): d is PoolDoc {
  if (!isRecallable(d, scope)) return false;
  const asOf = scope.asOf;
  return asOf === undefined || (d!.validFrom <= asOf && (d!.validTo === null || asOf < d!.validTo));
}

const byTimeThenId = (a: PoolDoc, b: PoolDoc) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

interface SessionIndex {
  order: string[]; // sessions by first turn time
  turns: Map<string, PoolDoc[]>; // turns by time
  pos: Map<MemoryId, number>;
}

function sessionIndex(docs: readonly PoolDoc[]): SessionIndex {
  const turns = new Map<string, PoolDoc[]>();
  for (const d of docs) {
    let t = turns.get(d.sessionId);
    if (!t) turns.set(d.sessionId, (t = []));
    t.push(d);
  }
  const pos = new Map<MemoryId, number>();
  for (const t of turns.values()) {
    t.sort(byTimeThenId);
    t.forEach((d, i) => pos.set(d.id, i));
  }
  const order = [...turns.keys()].sort((a, b) => turns.get(a)![0].createdAt - turns.get(b)![0].createdAt || (a < b ? -1 : a > b ? 1 : 0));
  return { order, turns, pos };
}

function temporalOf(seed: PoolDoc, si: SessionIndex, o: Required<ExpandPoolOptions>): { id: MemoryId; detail: string }[] {
  const out: { id: MemoryId; detail: string }[] = [];
  const same = si.turns.get(seed.sessionId) ?? [];
  const p = si.pos.get(seed.id) ?? 0;
  for (let d = 1; d <= o.turnWindow; d++) {
    if (same[p - d]) out.push({ id: same[p - d].id, detail: `${d} turn${d > 1 ? 's' : ''} before` });
    if (same[p + d]) out.push({ id: same[p + d].id, detail: `${d} turn${d > 1 ? 's' : ''} after` });
  }
  const k = si.order.indexOf(seed.sessionId);
  for (const [adj, label] of [[k - 1, 'the session before'], [k + 1, 'the session after']] as const) {
    const s = si.order[adj];
    if (s === undefined || adj < 0) continue;
    const near = [...si.turns.get(s)!].sort((a, b) => Math.abs(a.createdAt - seed.createdAt) - Math.abs(b.createdAt - seed.createdAt) || byTimeThenId(a, b));
    for (const d of near.slice(0, o.adjacentTurns)) out.push({ id: d.id, detail: label });
  }
  return out;
}

/**
 * The pool: the primary results (best first, in scope), then the expansion's candidates, the three
 * strategies taking turns, until `cap`. A candidate found several ways keeps every way (`via`).
 */
export function expandPool(primary: readonly MemoryId[], src: ExpansionSource, scope: Scope, opts: ExpandPoolOptions = {}): PoolEntry[] {
  const o: Required<ExpandPoolOptions> = { cap: 50, seeds: 5, turnWindow: 2, adjacentTurns: 2, rules: 10, ...opts };
  const docOf = new Map(src.docs.map((d) => [d.id, d]));
  const ok = (id: MemoryId) => inScope(docOf.get(id), scope);
  const pool = new Map<MemoryId, PoolEntry>();
  primary.forEach((id, i) => {
    if (pool.size < o.cap && ok(id) && !pool.has(id)) pool.set(id, { id, primaryRank: i, via: [] });
  });
  const seeds = [...pool.keys()].slice(0, o.seeds);
  if (src.constraints) {
    // every rule in scope is read (newest first when more than `rules`); a primary one only gains the way
    const rules = src.constraints.filter(ok).map((id) => docOf.get(id)!).sort((a, b) => b.createdAt - a.createdAt || byTimeThenId(a, b));
    for (const d of rules.slice(0, o.rules)) {
      if (pool.has(d.id) || pool.size >= o.cap) continue;
      pool.set(d.id, { id: d.id, primaryRank: null, via: [{ strategy: 'rule', seed: d.id, detail: 'a rule to keep in mind' }] });
    }
  }
  const inScopeDocs = src.docs.filter((d) => ok(d.id));
  const si = sessionIndex(inScopeDocs);
  const queues: { strategy: ExpansionStrategy; items: { id: MemoryId; seed: MemoryId; detail: string }[] }[] = [];
  queues.push({
    strategy: 'temporal',
    items: seeds.flatMap((s) => (docOf.get(s) ? temporalOf(docOf.get(s)!, si, o).map((x) => ({ ...x, seed: s })) : [])),
  });
  if (src.entities) {
    const hits = expandByEntities(src.entities, seeds, { accept: ok, limit: o.cap });
    queues.push({ strategy: 'entity', items: hits.map((h) => ({ id: h.id, seed: h.via[0].seed, detail: `${h.via[0].entities.length} shared name${h.via[0].entities.length > 1 ? 's' : ''}` })) });
  }
  if (src.communityOf) {
    const items: { id: MemoryId; seed: MemoryId; detail: string }[] = [];
    const byCommunity = new Map<number, PoolDoc[]>();
    for (const d of inScopeDocs) {
      const c = src.communityOf(d.id);
      if (c === undefined) continue;
      let l = byCommunity.get(c);
      if (!l) byCommunity.set(c, (l = []));
      l.push(d);
    }
    for (const s of seeds) {
      const c = src.communityOf(s);
      const seed = docOf.get(s);
      if (c === undefined || !seed) continue;
      const near = [...(byCommunity.get(c) ?? [])].sort((a, b) => Math.abs(a.createdAt - seed.createdAt) - Math.abs(b.createdAt - seed.createdAt) || byTimeThenId(a, b));
      for (const d of near) if (d.id !== s) items.push({ id: d.id, seed: s, detail: `community ${c}` });
    }
    queues.push({ strategy: 'community', items });
  }
  if (src.nearest) {
    // no seed: found from the question itself (the way's seed is the memory, its detail its rank)
    queues.push({ strategy: 'meaning', items: src.nearest.filter(ok).map((id, i) => ({ id, seed: id, detail: `rank ${i + 1} by the careful model` })) });
  }
  const cursor = queues.map(() => 0);
  let progressed = true;
  while (pool.size < o.cap && progressed) {
    progressed = false;
    queues.forEach((q, qi) => {
      // each strategy adds one new candidate per turn (already pooled ones only gain a `via`)
      while (cursor[qi] < q.items.length && pool.size < o.cap) {
        const it = q.items[cursor[qi]++];
        progressed = true;
        const have = pool.get(it.id);
        const way = { strategy: q.strategy, seed: it.seed, detail: it.detail };
        if (have) {
          if (have.primaryRank === null && !have.via.some((v) => v.strategy === q.strategy)) have.via.push(way);
          continue;
        }
        pool.set(it.id, { id: it.id, primaryRank: null, via: [way] });
        break;
      }
    });
  }
  return [...pool.values()];
}
