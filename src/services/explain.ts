// A one-line, human explanation of why a hit matched.

import type { ScoredHit } from '../core/types';

const pct = (x: number) => `${Math.round(x * 100)}%`;

export function explainHit(hit: ScoredHit): string {
  const { lexical, semantic, matchedTerms, cosine } = hit.why;
  const parts: string[] = [];
  if (matchedTerms.length) parts.push(`words: ${matchedTerms.slice(0, 6).join(', ')}`);
  const total = lexical + semantic;
  if (total > 0) {
    if (lexical > 0 && semantic > 0) parts.push(`${pct(lexical / total)} keywords, ${pct(semantic / total)} meaning`);
    else parts.push(lexical > 0 ? 'keywords only' : 'meaning only');
  }
  if (semantic > 0) parts.push(`similarity ${cosine.toFixed(2)}`);
  return parts.join(' · ') || 'weak match';
}
