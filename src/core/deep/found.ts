// How a memory was found, in plain words, for the graph, the results list and the explanation:
// deep search's pool ways (seed 003 B) and the iterative loop's passes (seed 001).

import type { ExpansionStrategy } from './expand';

export interface FoundWay {
  strategy: ExpansionStrategy;
  detail: string;
}

const WAY_WORDS: Record<ExpansionStrategy, string> = {
  temporal: 'said near a memory you found',
  entity: 'shares a name with a memory you found',
  community: 'in the same group of related memories',
  meaning: 'close in meaning to your question',
  rule: 'a rule you asked to keep in mind',
};

/** Short label for a graph edge. */
export const WAY_SHORT: Record<ExpansionStrategy, string> = { temporal: 'nearby in time', entity: 'shared name', community: 'same group', meaning: 'close in meaning', rule: 'a rule' };

/** "said near a memory you found (1 turn before)"; several ways joined with "; ". */
export function foundWords(ways: readonly FoundWay[]): string {
  if (ways.length === 0) return 'read again by deeper search';
  const seen = new Set<ExpansionStrategy>();
  const out: string[] = [];
  for (const w of ways) {
    if (seen.has(w.strategy)) continue;
    seen.add(w.strategy);
    const detail = w.strategy === 'community' || w.strategy === 'meaning' || w.strategy === 'rule' ? '' : w.detail ? ` (${w.detail})` : '';
    out.push(`${WAY_WORDS[w.strategy]}${detail}`);
  }
  return out.join('; ');
}

/** The iterative pass that added a memory, in words: "pass 2: searched again as "…"" / "pass 3: widened over shared names". */
export function passWords(pass: { pass: number; action: 'retrieve' | 'reformulate' | 'widen'; query: string }): string {
  if (pass.action === 'reformulate') return `pass ${pass.pass}: searched again as "${pass.query}"`;
  if (pass.action === 'widen') return `pass ${pass.pass}: widened over shared names`;
  return `pass ${pass.pass}: your question`;
}
