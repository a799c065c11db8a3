// @vitest-environment jsdom
// The results card when a recall found nothing: an empty store says why and what to do, a store
// with memories says only that nothing was recalled.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { ResultsCard } from './ResultsList';

afterEach(cleanup);
const noop = () => {};

describe('ResultsCard with no results', () => {
  it('with no memories stored, says there is nothing to recall yet and where to start', () => {
    render(<ResultsCard views={[]} stored={0} pending={false} onOpen={noop} openId={null} />);
    expect(screen.getByTestId('explore-none').textContent).toBe('There are no memories to recall yet: write one under Memories, or load the sample collection.');
  });

  it('with memories stored (or still counting), says nothing was recalled for that query', () => {
    render(<ResultsCard views={[]} stored={12} pending={false} onOpen={noop} openId={null} />);
    expect(screen.getByTestId('explore-none').textContent).toBe('Nothing recalled for that query.');
    cleanup();
    render(<ResultsCard views={[]} pending={false} onOpen={noop} openId={null} />);
    expect(screen.getByTestId('explore-none').textContent).toBe('Nothing recalled for that query.');
  });
});

describe('ResultsList: a rule (constraint memory, issue 11)', () => {
  it('is marked "rule" in the list; other memories are not', async () => {
    const { ResultsList } = await import('./ResultsList');
    const row = (id: string, tags: string[]) => ({ id, mode: 'standard' as const, score: 0.5, title: id, tags, relevantSpaces: [], close: true, when: Date.UTC(2026, 10, 1) });
    render(<ResultsList rows={[row('Never book meetings on Fridays', ['work', 'constraint']), row('Lunch with Sam', ['sam'])]} onOpen={noop} openId={null} />);
    const items = screen.getAllByTestId('explore-result');
    expect(items.map((i) => i.querySelector('[data-testid="explore-result-rule"]')?.textContent ?? null)).toEqual(['rule', null]);
  });
});
