// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { SpaceExplanationPanel } from './SpaceExplanationPanel';
import { relevanceTier } from '../../../core/spaces';
import { DEFAULT_SIMILARITY_CONFIG, type SpaceSims } from '../../../core/spaces';

afterEach(cleanup);

// Hand-computed with the seed's defaults (weights semantic 1, relational/structural 0.5):
//  E1 0.95 > 0.75 -> 1 x 0.20 = 0.200   E6 0.70 > 0.60 -> 1 x 0.10 = 0.100
//  E8 0.90 > 0.70 -> 0.5 x 0.20 = 0.100 E11 0.80 > 0.70 -> 0.5 x 0.10 = 0.050
//  E5 0.50, E9 0.50, E13 0.20 below; E12 0.70 equals its threshold -> not relevant (strictly above).
//  E7, E10 absent; E2 given but excluded (temporal).
//  active weight = E1 1 + E5 1 + E6 1 + E8 .5 + E9 .5 + E11 .5 + E12 1 + E13 1 = 6.5
//  score = 0.45 / 6.5 = 0.0692...
const sims: SpaceSims = { E1: 0.95, E2: 0.9, E5: 0.5, E6: 0.7, E8: 0.9, E9: 0.5, E11: 0.8, E12: 0.7, E13: 0.2 };

describe('SpaceExplanationPanel', () => {
  it('shows the score, tier and one row per space with its state', () => {
    render(<SpaceExplanationPanel sims={sims} />);
    const root = screen.getByTestId('space-explanation');
    expect(screen.getByTestId('relevance-score').textContent).toBe('0.069');
    expect(screen.getByTestId('relevance-tier').textContent).toBe('highly relevant (>= 3 spaces)');
    expect(root.getAttribute('data-tier')).toBe('highly-relevant');
    expect(screen.getByTestId('relevance-formula').textContent).toContain('4 of 8 active spaces');
    expect(screen.getByTestId('relevance-formula').textContent).toContain('active weight 6.5');

    const rows = root.querySelectorAll('tbody tr');
    expect(rows).toHaveLength(13);

    const e1 = screen.getByTestId('space-row-E1');
    expect(e1.getAttribute('data-relevant')).toBe('true');
    expect(e1.getAttribute('data-state')).toBe('active');
    expect(e1.querySelector('th, td')?.textContent).toContain('Semantic');
    expect(e1.textContent).toContain('semantic');
    expect(screen.getByTestId('space-sim-E1').textContent).toBe('0.95');
    expect(screen.getByTestId('space-high-E1').textContent).toBe('/ 0.75');
    expect(screen.getByTestId('space-relevant-E1').textContent).toBe('yes');
    expect(screen.getByTestId('space-contribution-E1').textContent).toBe('+0.200');

    expect(screen.getByTestId('space-contribution-E8').textContent).toBe('+0.100');
    expect(screen.getByTestId('space-contribution-E11').textContent).toBe('+0.050');
    expect(screen.getByTestId('space-row-E8').textContent).toContain('relational');

    const e12 = screen.getByTestId('space-row-E12');
    expect(e12.getAttribute('data-relevant')).toBe('false');
    expect(screen.getByTestId('space-relevant-E12').textContent).toBe('no');
    expect(screen.getByTestId('space-contribution-E12').textContent).toBe('0.000');

    for (const id of ['E2', 'E3', 'E4']) {
      const row = screen.getByTestId(`space-row-${id}`);
      expect(row.getAttribute('data-state')).toBe('excluded');
      expect(row.getAttribute('data-relevant')).toBe('false');
      expect(row.textContent).toContain('excluded (temporal)');
    }
    for (const id of ['E7', 'E10']) {
      const row = screen.getByTestId(`space-row-${id}`);
      expect(row.getAttribute('data-state')).toBe('absent');
      expect(row.textContent).toContain('absent for this memory');
    }
  });

  it('draws the similarity bar with the threshold marker as an accessible meter', () => {
    render(<SpaceExplanationPanel sims={sims} />);
    const meter = screen.getByRole('meter', { name: 'E6 Sparse similarity' });
    expect(meter.getAttribute('aria-valuenow')).toBe('0.7');
    expect(meter.getAttribute('aria-valuetext')).toBe('0.70, high threshold 0.60');
    const marker = meter.querySelector('.mg-bar__marker') as HTMLElement;
    expect(marker.style.left).toBe('60%');
    // Excluded and absent spaces have no meter.
    expect(screen.queryByRole('meter', { name: /E2 / })).toBeNull();
    expect(screen.getAllByRole('meter')).toHaveLength(8);
  });

  it('uses the tier "relevant" for one or two spaces, none for zero', () => {
    const { rerender } = render(<SpaceExplanationPanel sims={{ E1: 0.8, E5: 0.1 }} />);
    expect(screen.getByTestId('relevance-tier').textContent).toBe('relevant');
    // (0.05 x 1) / (1 + 1) = 0.025
    expect(screen.getByTestId('relevance-score').textContent).toBe('0.025');
    rerender(<SpaceExplanationPanel sims={{ E1: 0.5 }} />);
    expect(screen.getByTestId('space-explanation').getAttribute('data-tier')).toBe('none');
    expect(screen.getByTestId('relevance-score').textContent).toBe('0.000');
    expect(relevanceTier({ relevantSpaces: ['E1', 'E6'] })).toBe('relevant');
    expect(relevanceTier({ relevantSpaces: ['E1', 'E6', 'E7'] })).toBe('highly-relevant');
  });

  it('follows a custom config (a lowered threshold makes E5 relevant)', () => {
    const config = { ...DEFAULT_SIMILARITY_CONFIG, highThresholds: { ...DEFAULT_SIMILARITY_CONFIG.highThresholds, E5: 0.4 } };
    render(<SpaceExplanationPanel sims={{ E5: 0.5 }} config={config} />);
    expect(screen.getByTestId('space-row-E5').getAttribute('data-relevant')).toBe('true');
    expect(screen.getByTestId('space-high-E5').textContent).toBe('/ 0.40');
    expect(screen.getByTestId('space-contribution-E5').textContent).toBe('+0.100');
  });

  it('shows a non-finite similarity as invalid and not relevant', () => {
    render(<SpaceExplanationPanel sims={{ E1: Number.NaN }} />);
    expect(screen.getByTestId('space-sim-E1').textContent).toBe('invalid');
    expect(screen.getByTestId('space-row-E1').getAttribute('data-relevant')).toBe('false');
  });

  it('adds the hybrid explanation when given', () => {
    render(
      <SpaceExplanationPanel
        sims={sims}
        hybrid={{ lexical: 0.3, semantic: 0.1, bm25: 4.2, cosine: 0.61, matchedTerms: ['sourdough', 'starter'] }}
      />,
    );
    expect(screen.getByTestId('hybrid-lexical').textContent).toBe('0.300 (word score 4.20)');
    expect(screen.getByTestId('hybrid-semantic').textContent).toBe('0.100 (similarity 0.61)');
    expect(screen.getByTestId('hybrid-share').textContent).toBe('75% keywords · 25% meaning');
    const terms = within(screen.getByRole('list', { name: 'Matched terms' })).getAllByRole('listitem');
    expect(terms.map((t) => t.textContent)).toEqual(['sourdough', 'starter']);
  });

  it('has no hybrid section without one', () => {
    render(<SpaceExplanationPanel sims={sims} />);
    expect(screen.queryByTestId('hybrid-explanation')).toBeNull();
  });
});
