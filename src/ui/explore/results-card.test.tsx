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
