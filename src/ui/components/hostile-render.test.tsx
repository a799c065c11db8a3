// @vitest-environment jsdom
// Memory text is data, never markup: hostile text pushed through the memory list and the memory
// panel creates no element, and a source becomes a link only when safeUrl allows it.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { Memory } from '../../core/types';
import { MemoryPanel } from '../explore/panels/MemoryPanel';

const HOSTILE = [
  '<script>window.__pwned = 1</script>',
  '<img src=x onerror="window.__pwned = 2">',
  '[click me](javascript:window.__pwned=3) <a href="javascript:window.__pwned=3">link</a>',
  '<svg onload="window.__pwned = 4"><circle r="5"/></svg>',
  '<iframe srcdoc="<script>parent.__pwned=5</script>"></iframe><object data="data:text/html,x"></object>',
];

function memory(i: number, text: string, source: string): Memory {
  const t = Date.UTC(2026, 0, 1 + i);
  return {
    id: `m-${i}`,
    text,
    tags: ['x'],
    suggestedTags: [],
    importance: 0.5,
    source,
    createdAt: t,
    updatedAt: t,
    validFrom: t,
    validTo: null,
    sessionId: 's',
    status: 'active',
    deletedAt: null,
    embedTruncated: false,
  };
}

const SOURCES = ['javascript:window.__pwned=6', 'data:text/html,<script>x</script>', 'https://example.org/a?b=1', ' JaVa\tScRiPt:alert(1)', 'Notebook, p. 12'];
const MEMORIES = HOSTILE.map((t, i) => memory(i, t, SOURCES[i]!));

/** The one-value observable useObservable reads. */
const once = <T,>(value: T) => ({
  subscribe(next: ((v: T) => void) | { next: (v: T) => void }) {
    (typeof next === 'function' ? next : next.next.bind(next))(value);
    return { unsubscribe() {}, closed: false };
  },
  [Symbol.observable]() {
    return this;
  },
});

vi.mock('../../services', () => ({
  services: () => ({
    liveMemories: () => once(MEMORIES),
    liveMemoryCount: () => once(MEMORIES.length),
    deleteMemory: async () => {},
  }),
}));

const { MemoryList } = await import('./MemoryList');

/** Elements a hostile string could have created, and attributes that would run code. */
function assertInert(root: HTMLElement) {
  expect(root.querySelectorAll('script, img, svg, iframe, object, embed, circle').length).toBe(0);
  for (const el of Array.from(root.querySelectorAll('*'))) {
    for (const a of Array.from(el.attributes)) expect(a.name.startsWith('on'), `${el.tagName} ${a.name}`).toBe(false);
  }
  for (const a of Array.from(root.querySelectorAll('a'))) expect(a.getAttribute('href')).toMatch(/^(https?|mailto):/);
  expect((window as { __pwned?: number }).__pwned).toBeUndefined();
}

beforeEach(() => {
  delete (window as { __pwned?: number }).__pwned;
});
afterEach(cleanup);

describe('hostile memory text', () => {
  it('the memory list shows it as text and links only the safe source', () => {
    const { container } = render(<MemoryList />);
    const items = screen.getAllByTestId('memory-item');
    expect(items).toHaveLength(5);
    // newest first (as stored by the live query): the text comes back character for character
    expect(items.map((li) => li.querySelector('.memory__text')?.textContent)).toEqual(HOSTILE);
    assertInert(container);
    const links = within(container).getAllByRole('link');
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['https://example.org/a?b=1']);
    expect(items[0]!.textContent).toContain('from javascript:window.__pwned=6');
  });

  it.each(MEMORIES.map((m, i) => [i, m] as const))('the memory panel shows hostile memory %i as text', (_i, m) => {
    const { baseElement } = render(<MemoryPanel memory={m} onClose={() => {}} />);
    expect(screen.getByTestId('memory-text').textContent).toBe(m.text);
    assertInert(baseElement);
    const source = screen.getByTestId('memory-source');
    expect(source.textContent).toBe(m.source);
    expect(source.querySelector('a')?.getAttribute('href') ?? null).toBe(m.source?.startsWith('https:') ? m.source : null);
  });
});
