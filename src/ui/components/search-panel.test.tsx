// @vitest-environment jsdom
// The search box against a fake of the services: while the engine's staged start still answers by
// words, a query that matched nothing says so; once the engine is warm the same query runs again by
// itself and its full answer replaces "Nothing matched" (the flake seen in models.spec after a
// reload: the box kept the keyword stage's empty answer).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { SearchResultView } from '../../services';

const h = vi.hoisted(() => {
  const listeners = new Set<() => void>();
  const state = { stage: 'keywords' as string, runs: [] as string[], answer: [] as unknown[] };
  return {
    state,
    setStage(stage: string) {
      state.stage = stage;
      listeners.forEach((l) => l());
    },
    services: () => ({
      onEngineLoad(l: () => void) {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      engineLoad: () => ({ stage: state.stage }),
    }),
  };
});

vi.mock('../../services', () => ({
  services: () => h.services(),
  createSearchController: () => ({
    async run(q: string) {
      h.state.runs.push(q);
      return { status: 'fresh', requestId: h.state.runs.length, query: q, results: h.state.answer };
    },
    abort() {},
    latestRequestId: () => h.state.runs.length,
  }),
}));

vi.mock('../app/boot', () => {
  const ready = { phase: 'ready' };
  return { modelProgress: { get: () => ready, subscribe: () => () => {} } };
});

import { SearchPanel } from './SearchPanel';
import { useUi } from '../../state/ui-store';
import { setKeepApiForTests, type KeepApi } from '../memories/keep-api';

function hit(id: string, text: string): SearchResultView {
  const why = { lexical: 0, semantic: 0.9, bm25: 0, cosine: 0.62, matchedTerms: [] as string[] };
  return { memory: { id, text }, hit: { id, score: 0.9, why }, explanation: 'by meaning' } as unknown as SearchResultView;
}

describe('SearchPanel and the engine start', () => {
  beforeEach(() => {
    h.state.stage = 'keywords';
    h.state.runs = [];
    h.state.answer = [];
    useUi.setState({ query: '' });
  });
  afterEach(cleanup);

  it('runs the same query again once the engine turns warm, replacing the keyword stage’s empty answer', async () => {
    render(<SearchPanel enabled />);
    fireEvent.change(screen.getByTestId('search-input'), { target: { value: 'fixing my automobile' } });
    expect(await screen.findByTestId('search-empty')).toHaveProperty('textContent', 'Nothing matched “fixing my automobile”.');
    expect(h.state.runs).toEqual(['fixing my automobile']);

    h.state.answer = [hit('m1', 'the mechanic replaced the timing belt')];
    act(() => h.setStage('warm'));
    await waitFor(() => expect(screen.getAllByTestId('search-result')).toHaveLength(1));
    expect(h.state.runs).toEqual(['fixing my automobile', 'fixing my automobile']);
    expect(screen.queryByTestId('search-empty')).toBeNull();
  });

  it('does not run again while the engine stays in the same stage', async () => {
    h.state.stage = 'warm';
    h.state.answer = [hit('m1', 'the mechanic replaced the timing belt')];
    render(<SearchPanel enabled />);
    fireEvent.change(screen.getByTestId('search-input'), { target: { value: 'timing belt' } });
    await waitFor(() => expect(screen.getAllByTestId('search-result')).toHaveLength(1));
    act(() => h.setStage('warm'));
    expect(h.state.runs).toEqual(['timing belt']);
  });
});

describe('SearchPanel and earlier versions', () => {
  afterEach(cleanup);

  it('an earlier version among the results says it is the earlier text of a changed memory; a current one says nothing', async () => {
    h.state.stage = 'warm';
    const old = hit('v1', 'Signed the lease for the flat on Elm Street');
    Object.assign(old.memory, { supersededBy: 'm1', supersededAt: Date.UTC(2026, 10, 25, 12) });
    h.state.answer = [hit('m1', 'Signed the lease for the flat on Oak Avenue'), old];
    render(<SearchPanel enabled />);
    fireEvent.change(screen.getByTestId('search-input'), { target: { value: 'lease' } });
    await waitFor(() => expect(screen.getAllByTestId('search-result')).toHaveLength(2));
    const [current, earlier] = screen.getAllByTestId('search-result');
    expect(current!.querySelector('[data-testid="result-earlier"]')).toBeNull();
    expect(earlier!.querySelector('[data-testid="result-earlier"]')!.textContent).toBe(
      `Earlier text of a memory you changed on ${new Date(Date.UTC(2026, 10, 25, 12)).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' })}.`,
    );
  });
});

describe('SearchPanel and pictures', () => {
  afterEach(() => {
    cleanup();
    setKeepApiForTests(null);
    vi.restoreAllMocks();
  });

  it("shows a picture memory's thumbnail in its result, its caption as the alt text; a memory without one has none", async () => {
    h.state.stage = 'warm';
    const thumb = new Blob(['thumb'], { type: 'image/webp' });
    const asked: string[][] = [];
    setKeepApiForTests({
      async getImages(ids: string[]) {
        asked.push(ids);
        return ids.map((id) => ({ id, thumb, data: thumb }));
      },
    } as unknown as KeepApi);
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:thumb'), revokeObjectURL: vi.fn() });
    const door = hit('m1', 'Painted the front door');
    (door.memory as { media?: unknown }).media = [{ imageId: 'img-1', caption: 'the red front door' }];
    h.state.answer = [door, hit('m2', 'Bought paint for the door')];
    render(<SearchPanel enabled />);
    fireEvent.change(screen.getByTestId('search-input'), { target: { value: 'door' } });
    const img = await screen.findByRole('img', { name: 'the red front door' });
    expect(img.getAttribute('src')).toBe('blob:thumb');
    const [first, second] = screen.getAllByTestId('search-result');
    expect(first!.contains(img)).toBe(true);
    expect(second!.querySelector('[data-testid="result-thumb"]')).toBeNull();
    expect(asked).toEqual([['img-1']]);
  });
});

describe('SearchPanel before the database opens', () => {
  afterEach(cleanup);

  it('draws the disabled box without asking the services (they throw until the database is open)', () => {
    const spy = vi.spyOn(h, 'services').mockImplementation(() => {
      throw new Error('The app is still starting: the database is not open yet.');
    });
    render(<SearchPanel enabled={false} />);
    expect(screen.getByTestId('search-input')).toHaveProperty('disabled', true);
    spy.mockRestore();
  });
});
