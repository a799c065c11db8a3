// @vitest-environment jsdom
// The Explore store and the address: a person's steps push history entries; an address applied
// (Back, Forward, a link) sets the query, the profile and the open memory.
import { beforeEach, describe, expect, it } from 'vitest';
import { useExplore } from './explore-store';
import { route } from '../app/routes';
import { lateralNote } from './ExploreView';

beforeEach(() => {
  window.history.replaceState(null, '', '#/explore');
  useExplore.setState({ recalled: null, query: '', options: {}, openId: null });
});

describe('explore store and the address', () => {
  it('a recall, then opening and closing a memory, are three history entries', () => {
    const before = window.history.length;
    useExplore.getState().noteRecall('bread rise', 'DIVERGENT');
    expect(window.location.hash).toBe('#/explore?q=bread%20rise&profile=DIVERGENT');
    useExplore.getState().open('m-1');
    expect(window.location.hash).toBe('#/explore?q=bread%20rise&profile=DIVERGENT&m=m-1');
    expect(useExplore.getState().openId).toBe('m-1');
    useExplore.getState().open(null);
    expect(window.location.hash).toBe('#/explore?q=bread%20rise&profile=DIVERGENT');
    expect(window.history.length).toBe(before + 3);
  });

  it('the same recall again adds no entry', () => {
    useExplore.getState().noteRecall('a', null);
    const n = window.history.length;
    useExplore.getState().noteRecall('a', null);
    expect(window.history.length).toBe(n);
  });

  it('an applied address sets query, profile and open memory; the same one again keeps the recall', () => {
    useExplore.setState({ options: { profile: 'CRITICAL', topK: 5 } });
    useExplore.getState().applyRoute(route('graph', { q: 'train to Lyon', m: 'x' }));
    const s = useExplore.getState();
    expect(s.query).toBe('train to Lyon');
    expect(s.options).toEqual({ topK: 5 }); // no profile in the address: back to the default
    expect(s.openId).toBe('x');
    expect(s.recalled).toEqual({ q: 'train to Lyon', profile: null });
    const recalled = s.recalled;
    useExplore.getState().applyRoute(route('graph', { q: 'train to Lyon' }));
    expect(useExplore.getState().recalled).toBe(recalled); // same object: the view does not run it again
    expect(useExplore.getState().openId).toBeNull();
  });

  it('an address without a query leaves the query box alone', () => {
    useExplore.setState({ query: 'half typed' });
    useExplore.getState().applyRoute(route('graph', { m: 'y' }));
    expect(useExplore.getState().query).toBe('half typed');
    expect(useExplore.getState().openId).toBe('y');
    expect(useExplore.getState().recalled).toBeNull();
  });
});

describe('lateralNote', () => {
  it('says whether lateral results are allowed and whether the profile adds them', () => {
    expect(lateralNote(true, undefined, undefined)).toBe('Lateral results: allowed (used by the Divergent profile). Your recalls with BALANCED add none.');
    expect(lateralNote(true, 'DIVERGENT', undefined)).toBe('Lateral results: allowed (used by the Divergent profile). Your recalls with DIVERGENT add them.');
    expect(lateralNote(true, 'BALANCED', true)).toBe('Lateral results: allowed (used by the Divergent profile). Your recalls with BALANCED add them.');
    expect(lateralNote(false, 'DIVERGENT', undefined)).toBe(
      'Lateral results: paused by auto-tuning, because too many were suppressed. Your recalls with DIVERGENT add them.',
    );
  });
});
