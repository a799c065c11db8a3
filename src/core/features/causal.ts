// E5: the cause / effect clauses a text contains. The featurizer only extracts the clauses;
// the caller embeds them with the same sentence encoder as E1 (mean of the clause vectors).
// Each clause is returned as "cause => effect" when both sides are found in one sentence,
// else the side that follows the marker, so "I moved because the rent rose" and "the rent
// went up, so I left" both yield a rent -> moving clause.

export interface CausalClause {
  marker: string;
  cause: string;
  effect: string;
  /** What gets embedded: "<cause> => <effect>" (or the one side present). */
  text: string;
}

// marker -> which side of it the CAUSE is on
const MARKERS: ReadonlyArray<[RegExp, 'after' | 'before']> = [
  [/\bbecause of\b/i, 'after'],
  [/\bbecause\b/i, 'after'],
  [/\bdue to\b/i, 'after'],
  [/\bowing to\b/i, 'after'],
  [/\bthanks to\b/i, 'after'],
  [/\bas a result of\b/i, 'after'],
  [/\bsince\b(?!\s+(?:\d+|then|last|yesterday|monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december)\b)/i, 'after'],
  [/\bas a result\b/i, 'before'],
  [/\btherefore\b/i, 'before'],
  [/\bthus\b/i, 'before'],
  [/\bhence\b/i, 'before'],
  [/\bconsequently\b/i, 'before'],
  [/\bso that\b/i, 'before'],
  [/,?\s+so\b(?!\s+(?:much|many|far|long|good|bad|great|far))/i, 'before'],
  [/\bled to\b/i, 'before'],
  [/\bleads to\b/i, 'before'],
  [/\bresulted in\b/i, 'before'],
  [/\bresults in\b/i, 'before'],
  [/\bcaused\b/i, 'before'],
  [/\bcauses\b/i, 'before'],
  [/\bmade me\b/i, 'before'],
  [/\bthat's why\b/i, 'before'],
  [/\bwhich is why\b/i, 'before'],
];

// A question about a cause ("Why did Caroline move?", "What made him quit?") has no marker but
// names the effect it asks about: its clause is that effect, so a query finds the memory that
// explains it in E5.
const CAUSE_QUESTION = /^\s*(?:why|how come|what (?:caused|led to|made|makes|causes|is the reason|was the reason|were the reasons?))\b\s*(.*?)[\s?.!]*$/i;

const clean = (s: string) => s.replace(/^[\s,;:–—-]+|[\s,;:–—.!?-]+$/g, '').trim();

export function extractCausalClauses(text: string, maxClauses = 4): CausalClause[] {
  const out: CausalClause[] = [];
  for (const sentence of text.split(/(?<=[.!?])\s+|\n+/)) {
    const q = CAUSE_QUESTION.exec(sentence);
    if (q && q[1].split(/\s+/).length >= 2) {
      const effect = clean(q[1]);
      out.push({ marker: sentence.trim().split(/\s+/)[0].toLowerCase(), cause: '', effect, text: effect });
      if (out.length >= maxClauses) break;
      continue;
    }
    for (const [re, side] of MARKERS) {
      const m = re.exec(sentence);
      if (!m) continue;
      const before = clean(sentence.slice(0, m.index));
      const after = clean(sentence.slice(m.index + m[0].length));
      const [cause, effect] = side === 'after' ? [after, before] : [before, after];
      if (!cause && !effect) continue;
      const body = cause && effect ? `${cause} => ${effect}` : cause || effect;
      if (body.split(/\s+/).length < 2) continue;
      out.push({ marker: m[0].trim().replace(/^,\s*/, ''), cause, effect, text: body });
      break; // one clause per sentence: the first (most specific) marker wins
    }
    if (out.length >= maxClauses) break;
  }
  return out;
}
