import { describe, expect, it } from 'vitest';
import { loadSampleMemories, type SampleMemory } from './index';
import { CHAINS, CORRECTIONS, LATERAL_PAIRS, NEAR_DUPLICATES, PEOPLE } from './design';

const memories: SampleMemory[] = await loadSampleMemories();

/** The one memory whose text starts with `prefix`; fails loudly when there are none or several. */
function byPrefix(prefix: string): SampleMemory {
  const hits = memories.filter((m) => m.text.startsWith(prefix));
  if (hits.length !== 1) throw new Error(`expected exactly one memory starting "${prefix}", found ${hits.length}`);
  return hits[0];
}

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const TAG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const CODE = /```[\s\S]+?```|`[^`\n]+`/;
const EMOTION =
  /\b(proud|proudest|pride|joy|happy|grinning|grin|cried|cry|frustrat\w*|anxious|anxiety|nervous|panic|scared|heartbroken|grateful|lucky|missing|miss|relief|sick|smiling|sorry for myself|excited|screaming)\b/i;
const STOP = new Set(['the', 'and', 'that', 'with', 'this', 'from', 'have', 'about', 'again', 'into', 'only', 'when', 'were', 'what', 'just']);
const words = (s: string) => new Set((s.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => w.length >= 3 && !STOP.has(w)));

describe('sample collection', () => {
  it('has 250..400 memories, each with non-empty text, within ~400 KB', async () => {
    expect(memories.length).toBeGreaterThanOrEqual(250);
    expect(memories.length).toBeLessThanOrEqual(400);
    for (const m of memories) expect(m.text.trim().length, m.createdAt).toBeGreaterThan(0);
    const { statSync } = await import('node:fs');
    expect(statSync(new URL('./memories.json', import.meta.url)).size).toBeLessThan(400 * 1024);
  });

  it('has 1..6 normalised, distinct tags per memory', () => {
    for (const m of memories) {
      expect(m.tags.length, m.text.slice(0, 40)).toBeGreaterThanOrEqual(1);
      expect(m.tags.length, m.text.slice(0, 40)).toBeLessThanOrEqual(6);
      for (const t of m.tags) expect(t, m.text.slice(0, 40)).toMatch(TAG);
      expect(new Set(m.tags).size).toBe(m.tags.length);
    }
  });

  it('gives a source to some memories, always a short non-empty label', () => {
    const withSource = memories.filter((m) => m.source !== undefined);
    expect(withSource.length).toBeGreaterThanOrEqual(10);
    for (const m of withSource) expect(m.source).toMatch(/^[a-z][a-z-]{1,30}$/);
  });

  it('keeps importance in [0, 1] and actually varies it', () => {
    for (const m of memories) {
      expect(m.importance).toBeGreaterThanOrEqual(0);
      expect(m.importance).toBeLessThanOrEqual(1);
    }
    expect(new Set(memories.map((m) => m.importance)).size).toBeGreaterThanOrEqual(5);
  });

  it('uses valid ISO dates between May and November 2026, in chronological order', () => {
    let prev = -Infinity;
    for (const m of memories) {
      expect(m.createdAt).toMatch(ISO_UTC);
      const t = Date.parse(m.createdAt);
      expect(new Date(t).toISOString()).toBe(m.createdAt); // round-trips, so the date is real
      expect(t).toBeGreaterThanOrEqual(Date.parse('2026-05-01T00:00:00Z'));
      expect(t).toBeLessThan(Date.parse('2026-12-01T00:00:00Z'));
      expect(t, m.text.slice(0, 40)).toBeGreaterThan(prev);
      prev = t;
    }
  });

  it('keeps each session contiguous, on its own day, within a few hours', () => {
    const seen = new Set<string>();
    for (let i = 0; i < memories.length; i++) {
      const m = memories[i];
      expect(m.sessionId).toMatch(/^s-\d{4}-\d{2}-\d{2}-[a-z]$/);
      expect(m.sessionId.slice(2, 12)).toBe(m.createdAt.slice(0, 10));
      if (i > 0 && memories[i - 1].sessionId === m.sessionId) continue;
      expect(seen.has(m.sessionId), `session ${m.sessionId} is split`).toBe(false);
      seen.add(m.sessionId);
    }
    const bySession = new Map<string, number[]>();
    for (const m of memories) bySession.set(m.sessionId, [...(bySession.get(m.sessionId) ?? []), Date.parse(m.createdAt)]);
    for (const [id, times] of bySession) {
      expect(Math.max(...times) - Math.min(...times), id).toBeLessThanOrEqual(8 * 3600_000);
    }
    expect(bySession.size).toBeGreaterThanOrEqual(80);
    // A session is a few related memories: most sessions hold more than one.
    const multi = [...bySession.values()].filter((t) => t.length >= 2).length;
    expect(multi / bySession.size).toBeGreaterThanOrEqual(0.6);
    expect(Math.max(...[...bySession.values()].map((t) => t.length))).toBeLessThanOrEqual(6);
  });

  it('has enough code, feeling, people and media', () => {
    const code = memories.filter((m) => CODE.test(m.text));
    const fenced = memories.filter((m) => m.text.includes('```'));
    const emotional = memories.filter((m) => EMOTION.test(m.text));
    const people = memories.filter((m) => PEOPLE.some((p) => new RegExp(`\\b${p}\\b`).test(m.text)));
    const media = memories.filter((m) => (m.media ?? []).some((x) => x.caption.trim().length > 0));
    expect(code.length).toBeGreaterThanOrEqual(20);
    expect(fenced.length).toBeGreaterThanOrEqual(10);
    for (const lang of ['ts', 'python', 'sql']) {
      expect(fenced.some((m) => m.text.includes('```' + lang)), lang).toBe(true);
    }
    expect(emotional.length).toBeGreaterThanOrEqual(20);
    expect(people.length).toBeGreaterThanOrEqual(30);
    expect(media.length).toBeGreaterThanOrEqual(10);
  });

  it('has every designed lateral pair: same tag, different domains', () => {
    expect(LATERAL_PAIRS.length).toBeGreaterThanOrEqual(15);
    expect(new Set(LATERAL_PAIRS.map((p) => p.tag)).size).toBe(LATERAL_PAIRS.length);
    for (const pair of LATERAL_PAIRS) {
      expect(pair.members.length).toBeGreaterThanOrEqual(2);
      expect(new Set(pair.members.map((x) => x.domain)).size, pair.tag).toBeGreaterThanOrEqual(2);
      for (const member of pair.members) expect(byPrefix(member.startsWith).tags, member.startsWith).toContain(pair.tag);
    }
  });

  it('has every designed chain: 3..4 steps, in time order, each step sharing words with the next', () => {
    expect(CHAINS.length).toBeGreaterThanOrEqual(6);
    for (const chain of CHAINS) {
      expect(chain.steps.length).toBeGreaterThanOrEqual(3);
      expect(chain.steps.length).toBeLessThanOrEqual(4);
      const steps = chain.steps.map(byPrefix);
      expect(new Set(steps).size).toBe(steps.length);
      for (let i = 1; i < steps.length; i++) {
        expect(Date.parse(steps[i].createdAt)).toBeGreaterThan(Date.parse(steps[i - 1].createdAt));
        const a = words(steps[i - 1].text);
        const shared = [...words(steps[i].text)].filter((w) => a.has(w));
        expect(shared.length, `${chain.query} step ${i}: ${shared.join(',')}`).toBeGreaterThanOrEqual(4);
        expect(steps[i].tags.some((t) => steps[i - 1].tags.includes(t))).toBe(true);
      }
      // The query itself shares words with the first step, so the chain starts from a direct hit.
      const q = words(chain.query);
      expect([...words(steps[0].text)].filter((w) => q.has(w)).length, chain.query).toBeGreaterThanOrEqual(2);
    }
  });

  it('has corrections that are newer than the wrong fact and share a tag with it', () => {
    expect(CORRECTIONS.length).toBeGreaterThanOrEqual(2);
    for (const c of CORRECTIONS) {
      const wrong = byPrefix(c.wrong);
      const fix = byPrefix(c.correction);
      expect(Date.parse(fix.createdAt)).toBeGreaterThan(Date.parse(wrong.createdAt));
      expect(fix.tags).toContain('correction');
      expect(wrong.tags).not.toContain('correction');
      expect(fix.tags.some((t) => t !== 'correction' && wrong.tags.includes(t))).toBe(true);
    }
  });

  it('has near-duplicates that really are near', () => {
    for (const [a, b] of NEAR_DUPLICATES) {
      const x = words(byPrefix(a).text);
      const y = words(byPrefix(b).text);
      const inter = [...x].filter((w) => y.has(w)).length;
      expect(inter / Math.min(x.size, y.size), a).toBeGreaterThanOrEqual(0.4);
    }
  });

  it('hands out copies, so callers cannot corrupt the shared module data', async () => {
    const a = await loadSampleMemories();
    a[0].tags.push('mutated');
    a[0].text = 'changed';
    const b = await loadSampleMemories();
    expect(b[0].tags).not.toContain('mutated');
    expect(b[0].text).not.toBe('changed');
  });
});
