import { describe, expect, it } from 'vitest';
import { formatRoute, parseRoute, route } from './routes';

describe('parseRoute', () => {
  it('reads each view', () => {
    expect(parseRoute('#/memories')).toEqual(route('memories'));
    expect(parseRoute('#/data')).toEqual(route('data'));
    expect(parseRoute('#/explore')).toEqual(route('graph'));
  });

  it('reads an Explore recall with its profile and open memory', () => {
    expect(parseRoute('#/explore?q=why%20didn%E2%80%99t%20my%20bread%20rise&profile=DIVERGENT&m=abc-1')).toEqual(
      route('graph', { q: 'why didn’t my bread rise', profile: 'DIVERGENT', m: 'abc-1' }),
    );
    expect(parseRoute('#/explore?q=sour+dough')).toEqual(route('graph', { q: 'sour dough' }));
    expect(parseRoute('#/explore?m=42')).toEqual(route('graph', { m: '42' }));
  });

  it('falls back to Memories for an empty or unknown address', () => {
    expect(parseRoute('')).toEqual(route('memories'));
    expect(parseRoute('#')).toEqual(route('memories'));
    expect(parseRoute('#/settings?q=x')).toEqual(route('memories'));
    expect(parseRoute('#/graph')).toEqual(route('memories')); // the internal name is not an address
  });

  it('accepts a missing slash, a trailing slash and other letter cases', () => {
    expect(parseRoute('#explore/?q=a')).toEqual(route('graph', { q: 'a' }));
    expect(parseRoute('#/Data')).toEqual(route('data'));
    expect(parseRoute('#/explore?q=a&profile=critical')).toEqual(route('graph', { q: 'a', profile: 'CRITICAL' }));
  });

  it('ignores malformed encoding, unknown profiles and empty values, keeping the rest', () => {
    expect(parseRoute('#/explore?q=%E0%A4%A&m=7')).toEqual(route('graph', { m: '7' }));
    expect(parseRoute('#/explore?q=ok&profile=TURBO')).toEqual(route('graph', { q: 'ok' }));
    expect(parseRoute('#/explore?q=%20%20&m=')).toEqual(route('graph'));
    expect(parseRoute('#/explore?q=first&q=second')).toEqual(route('graph', { q: 'first' }));
    expect(parseRoute('#/explore?&&q')).toEqual(route('graph'));
  });

  it('reads the memory lists (Memories, Trash, Review) with an open memory, dropping Explore-only parameters', () => {
    expect(parseRoute('#/memories?m=01a-b&q=x')).toEqual(route('memories', { m: '01a-b' }));
    expect(parseRoute('#/trash')).toEqual(route('trash'));
    expect(parseRoute('#/review?m=%20')).toEqual(route('review'));
    expect(formatRoute(route('trash', { m: 'a/b', q: 'dropped' }))).toBe('#/trash?m=a%2Fb');
    expect(formatRoute(route('memories', { m: 'id1' }))).toBe('#/memories?m=id1');
  });

  it('cuts a very long query to 2000 characters', () => {
    expect(parseRoute(`#/explore?q=${'a'.repeat(5000)}`).q).toHaveLength(2000);
  });
});

describe('formatRoute', () => {
  it('writes each view', () => {
    expect(formatRoute(route('memories'))).toBe('#/memories');
    expect(formatRoute(route('data', { q: 'ignored' }))).toBe('#/data');
    expect(formatRoute(route('graph'))).toBe('#/explore');
  });

  it('encodes the query and the memory id', () => {
    expect(formatRoute(route('graph', { q: 'a&b=c ?', profile: 'DIVERGENT', m: 'x/y' }))).toBe(
      '#/explore?q=a%26b%3Dc%20%3F&profile=DIVERGENT&m=x%2Fy',
    );
  });

  it('drops a profile without a query', () => {
    expect(formatRoute(route('graph', { profile: 'CRITICAL', m: 'm1' }))).toBe('#/explore?m=m1');
  });

  it('round-trips', () => {
    for (const r of [
      route('graph', { q: 'päper & ink #1', profile: 'SYSTEMATIZER', m: '01a20b2a-aaaa' }),
      route('graph', { q: '100%' }),
      route('memories'),
      route('memories', { m: '01a20b2a-bbbb' }),
      route('review', { m: 'x y' }),
      route('trash'),
      route('data'),
    ]) {
      expect(parseRoute(formatRoute(r))).toEqual(r);
    }
  });
});
