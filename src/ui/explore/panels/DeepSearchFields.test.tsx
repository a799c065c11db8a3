// @vitest-environment jsdom
// Deeper search's options in the recall drawer, and the dashboard's plain-words summary.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { DeepSearchFields } from './DeepSearchFields';
import { adaptiveLine, deepSummary, learnedFigures } from '../../settings/DeepSearchDashboard';

afterEach(cleanup);

describe('DeepSearchFields', () => {
  it('sets the mode, keeps the other deepSearch fields, and off removes the mode', () => {
    const onChange = vi.fn();
    const { rerender } = render(<DeepSearchFields value={{}} onChange={onChange} />);
    fireEvent.change(screen.getByLabelText('Deeper search when unsure'), { target: { value: 'shadow' } });
    expect(onChange).toHaveBeenLastCalledWith({ deepSearch: { mode: 'shadow' } });
    rerender(<DeepSearchFields value={{ deepSearch: { mode: 'active', threshold: 1 } }} onChange={onChange} />);
    fireEvent.change(screen.getByLabelText('Deeper search when unsure'), { target: { value: 'off' } });
    expect(onChange).toHaveBeenLastCalledWith({ deepSearch: { threshold: 1 } });
  });

  it('refuses a threshold outside 0..1 with the core message, and commits a good one on Enter', () => {
    const onChange = vi.fn();
    render(<DeepSearchFields value={{ deepSearch: { mode: 'active' } }} onChange={onChange} />);
    const f = screen.getByTestId('recall-option-deepSearch-threshold');
    fireEvent.change(f, { target: { value: '2' } });
    fireEvent.keyDown(f, { key: 'Enter' });
    expect(screen.getByRole('alert').textContent).toBe('Recall option "deepSearch.threshold" must be a number from 0 to 1; got 2.');
    expect(onChange).not.toHaveBeenCalled();
    fireEvent.change(f, { target: { value: '0.7' } });
    fireEvent.keyDown(f, { key: 'Enter' });
    expect(onChange).toHaveBeenLastCalledWith({ deepSearch: { mode: 'active', threshold: 0.7 } });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('"Keep looking" switches iterative search on and off', () => {
    const onChange = vi.fn();
    render(<DeepSearchFields value={{}} onChange={onChange} />);
    fireEvent.click(screen.getByTestId('recall-option-iterative'));
    expect(onChange).toHaveBeenLastCalledWith({ iterative: true });
  });
});

describe('the dashboard summary', () => {
  it('in plain words, with the share found and the time taken', () => {
    expect(deepSummary({ invocations: 4, hits: 1, hitRate: 0.25, meanMs: 1500, rateLimited: 1 })).toBe(
      'In the last 14 days deeper search ran 4 times and found something your first search had missed 1 time (25%). It took 1.5 s on average. It was held back 1 time by the limit per session.',
    );
    expect(deepSummary({ invocations: 0, hits: 0, hitRate: null, meanMs: null, rateLimited: 0 })).toContain('has not run in the last 14 days');
  });
});

describe('the dashboard: the adaptive threshold per kind of question', () => {
  it('stays at the base under 5 escalations; then base + 0.15 x (2 x hit rate - 1)', () => {
    // person: 4 of 5 hit -> 0.3 + 0.15 x 0.6 = 0.39; time: 0 of 10 -> 0.15; reason: 4 escalations -> 0.30
    expect(adaptiveLine({ person: { escalations: 5, hits: 4 }, time: { escalations: 10, hits: 0 }, reason: { escalations: 4, hits: 4 } })).toBe('time 0.15, person 0.39, reason 0.30, other 0.30');
    expect(adaptiveLine({}, 0.5)).toBe('time 0.50, person 0.50, reason 0.50, other 0.50');
  });
});

describe('the dashboard: what the first search learned', () => {
  it('one pair is "1 pair"; none is the shipped weights', () => {
    expect(learnedFigures({ pairs: 1, lexicalWeight: 0.4963, spaceWeights: { E11: 0.26, E5: 0.5 } } as never)).toBe('1 pair · lexical 0.496 · E11 0.26, E5 0.50');
    expect(learnedFigures({ pairs: 3, lexicalWeight: 0.5, spaceWeights: {} } as never)).toBe('3 pairs · lexical 0.500');
    expect(learnedFigures(null)).toBe('none yet (the shipped weights)');
  });
});
