import { describe, expect, it } from 'vitest';
import { deriveTags, MAX_ANALYSED_CHARS } from './derive';

describe('deriveTags', () => {
  it('finds entities (not sentence openers) before key phrases, skipping overlapping phrases', () => {
    // entities: Tbilisi x2, Alice Johnson, Graphorin, Alice (sentence opener, but capitalised mid-sentence too)
    // RAKE: met-alice-johnson 9, alice-loved-tbilisi 8, graphorin-conference 4, tbilisi 2 — all share a word
    expect(deriveTags('Met Alice Johnson in Tbilisi for the Graphorin conference. Alice loved Tbilisi.')).toEqual([
      'tbilisi',
      'alice-johnson',
      'graphorin',
    ]);
  });

  it('takes hashtags first, ignores numeric ones and C preprocessor lines', () => {
    // prose left: "Deploy went fine , see" -> phrases [deploy] [fine] (went, see are stopwords)
    expect(deriveTags('Deploy went fine #release #Ops-Team, see #42')).toEqual(['release', 'ops-team', 'deploy', 'fine']);
    expect(deriveTags('#include <stdio.h>\nint main() { printf("hi"); }')).toContain('c');
    expect(deriveTags('#include <stdio.h>\nint main() { printf("hi"); }')).not.toContain('include');
  });

  it('names the language of code: fences first, else heuristics', () => {
    expect(deriveTags('Fix:\n```ts\nconst x: number = 1;\n```')[0]).toBe('typescript');
    expect(deriveTags('```py\nprint(1)\n```\n```rs\nfn main() {}\n```').slice(0, 2)).toEqual(['python', 'rust']);
    expect(deriveTags('def load(path):\n    return open(path)')).toContain('python');
    expect(deriveTags('SELECT id FROM users WHERE age > 3')).toContain('sql');
    expect(deriveTags('interface Point { x: number }')).toContain('typescript');
    expect(deriveTags('interface Point { x: number }')).not.toContain('javascript');
    expect(deriveTags('fn parse(s: &str) -> u32 { let mut n = 0; n }')).toContain('rust');
    expect(deriveTags('I went for a walk by the river.')).toEqual(['walk', 'river']);
    // generic words are kept inside names but never make a key phrase of their own
    expect(deriveTags('We moved to New York last week.')).toEqual(['new-york', 'moved']);
  });

  it('scores RAKE phrases by degree/frequency times occurrences', () => {
    // phrases: [rebuild] [vector index] [slow] [vector index] [large]: vector/index freq 2, degree 4
    // -> vector-index = (2 + 2) * 2 occurrences = 8 > rebuild 1 = slow 1 = large 1 (then first appearance)
    expect(deriveTags('The rebuild of the vector index is slow; the vector index is large.')).toEqual(['vector-index', 'rebuild', 'slow', 'large']);
    // a longer phrase outscores its part: [vector index grows] = 2.5 + 2.5 + 3 = 8 > [vector index] 5
    expect(deriveTags('The rebuild of the vector index is slow; the vector index grows.')[0]).toBe('vector-index-grows');
    // a run over 3 words is split into single words
    expect(deriveTags('Nightly kafka consumer lag alert fired.')).toEqual(['nightly', 'kafka', 'consumer', 'lag', 'alert']);
  });

  it('is capped, honours exclude, normalises, and is deterministic', () => {
    const text = 'Budget review with Maria Lopez and Tom Berg about the Q3 marketing plan, hiring freeze, office move and cloud costs in Lisbon.';
    const a = deriveTags(text);
    expect(a.length).toBe(5);
    expect(deriveTags(text)).toEqual(a);
    expect(a.every((t) => t === t.toLowerCase() && !/\s/.test(t))).toBe(true);
    expect(a.slice(0, 3)).toEqual(['maria-lopez', 'tom-berg', 'q3']);
    expect(deriveTags(text, { limit: 2 })).toEqual(['maria-lopez', 'tom-berg']);
    expect(deriveTags(text, { exclude: ['Maria Lopez'] })[0]).toBe('tom-berg');
  });

  it('handles empty, stopword-only and huge input', () => {
    expect(deriveTags('')).toEqual([]);
    expect(deriveTags('and the of it is')).toEqual([]);
    expect(deriveTags('x', { limit: 0 })).toEqual([]);
    // Only the first MAX_ANALYSED_CHARS are analysed: 'Zookeeper', far more frequent but all
    // beyond the cap (26 * 2000 = 52,000 chars of Kafka first), never reaches the tags.
    const head = 'Kafka consumer lag alert. '.repeat(2000);
    expect(head.length).toBeGreaterThan(MAX_ANALYSED_CHARS);
    const huge = head + 'Zookeeper quorum lost. '.repeat(200_000); // 4.6 MB
    const tags = deriveTags(huge);
    expect(tags[0]).toBe('kafka');
    expect(tags.length).toBeLessThanOrEqual(5);
    expect(tags.filter((t) => t.includes('zookeeper'))).toEqual([]);
  });
});

describe('deriveTags: the poor suggestions people saw (issue 12)', () => {
  it('never suggests a possessive phrase: "Mum\'s pancakes" gives pancakes, an owner named mid-sentence is the owner', () => {
    // phrases: [pancakes] (Mum's splits it: a possessive names whose, not what) [milk] [eggs] [flour] [salt] [rest batter]
    const t = deriveTags("Mum's pancakes: 250 ml milk, 2 eggs, 125 g flour, a pinch of salt. Rest the batter 30 minutes.");
    expect(t).toEqual(['pancakes', 'milk', 'eggs', 'flour', 'salt']);
    // "Mum's" mid-sentence is an entity: the owner, without the possessive
    expect(deriveTags("Made Mum's pancakes again with the kids.")).toEqual(['mum', 'pancakes', 'kids']);
    for (const tag of [...t, ...deriveTags("Made Mum's pancakes again with the kids.")]) expect(tag).not.toMatch(/['’]/);
  });

  it('drops units and quantities: no "ml-milk", no "pinch" on its own', () => {
    expect(deriveTags('Pancake recipe: 1 cup flour, 200 ml milk, pinch of salt, 1 tbsp sugar')).toEqual([
      'pancake-recipe',
      'flour',
      'milk',
      'salt',
      'sugar',
    ]);
    expect(deriveTags('Harold says to pinch out the side shoots of the tomatoes.')).not.toContain('pinch');
    // "Worked out why…" made "worked" the first suggestion in the app
    expect(deriveTags("Worked out why the bread didn't rise: the kitchen is only 17 °C now.")).not.toContain('worked');
  });

  it('keeps a possessive inside a name, without its apostrophe', () => {
    expect(deriveTags("Four 'Gardener's Delight' and two 'Black Krim' tomato plants.")).toEqual(
      expect.arrayContaining(['gardeners-delight', 'black-krim']),
    );
  });
});
