// @vitest-environment jsdom
// Memory text is data, never markup: hostile text pushed through the opened memory (Markdown) and
// the Explore memory panel creates no element, and a link is made only when safeUrl allows it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import type { Memory } from '../../core/types';
import { MemoryPanel } from '../explore/panels/MemoryPanel';
import { MemoryDialog } from '../memories/MemoryDialog';
import { setKeepApiForTests, type KeepApi } from '../memories/keep-api';
import { useKeep } from '../memories/keep-store';

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

const opened: { m: Memory | null } = { m: null };
setKeepApiForTests({
  openMemory: async () => opened.m!,
  getMemory: async () => opened.m!,
  changeVersion: () => 0,
  subscribeChanges: () => () => {},
} as unknown as KeepApi);

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
  it.each(MEMORIES.map((m, i) => [i, m] as const))('the opened memory renders hostile memory %i as Markdown text, links only the safe source', async (_i, m) => {
    opened.m = m;
    useKeep.setState({ openId: m.id });
    const { baseElement } = render(<MemoryDialog />);
    const text = await screen.findByTestId('memory-view-text');
    assertInert(baseElement);
    // the markup is shown as the words it is
    if (m.text.startsWith('<')) expect(text.textContent).toContain(m.text.slice(0, 12));
    expect(within(text).queryAllByRole('link')).toHaveLength(0); // javascript: links stay words
    const source = screen.getByTestId('memory-view-source');
    expect(source.textContent).toBe(m.source);
    expect(source.querySelector('a')?.getAttribute('href') ?? null).toBe(m.source?.startsWith('https:') ? m.source : null);
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
