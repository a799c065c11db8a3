// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RecallOptionsPanel } from './RecallOptionsPanel';
import type { RecallOptionsInput } from '../../../core/recall';

afterEach(cleanup);

const field = (name: string) => screen.getByTestId(`recall-option-${name}`) as HTMLInputElement;

describe('RecallOptionsPanel', () => {
  it('offers the five profiles in a select labelled "Profile", with the selected one described', () => {
    render(<RecallOptionsPanel value={{}} onChange={() => {}} />);
    const select = screen.getByLabelText('Profile') as HTMLSelectElement;
    expect(select.value).toBe('BALANCED');
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'BALANCED',
      'DIVERGENT',
      'DEBUGGING',
      'CRITICAL',
      'SYSTEMATIZER',
    ]);
    expect(screen.getByTestId('recall-profile-description').textContent).toBe(
      'Everyday recall: words and meaning count equally; no lateral results (only Divergent adds those); no grouping.',
    );
    expect(select.getAttribute('aria-describedby')).toBe(screen.getByTestId('recall-profile-description').id);
    expect(screen.getByTestId('recall-options').textContent).toContain('Broad: topK 25 from a larger pool, results grouped by their primary tag.');
  });

  it('changing the profile reports only the profile', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<RecallOptionsPanel value={{}} onChange={onChange} />);
    await user.selectOptions(screen.getByLabelText('Profile'), 'DIVERGENT');
    expect(onChange).toHaveBeenCalledWith({ profile: 'DIVERGENT' });
  });

  it('shows profile defaults as placeholders (derived ones from the other options)', () => {
    const { rerender } = render(<RecallOptionsPanel value={{ profile: 'DIVERGENT' }} onChange={() => {}} />);
    expect(screen.getByTestId('recall-profile-description').textContent).toContain('Lateral retrieval on');
    expect(field('topK').placeholder).toBe('10');
    expect(field('lateralMaxResults').placeholder).toBe('3'); // max(1, floor(10 / 3))
    expect(field('lateralDistanceThreshold').placeholder).toBe('1.2');
    expect(field('minCosine').placeholder).toBe('0.72');
    expect(field('hopDecay').placeholder).toBe('0.8');
    expect(field('lateralMode').checked).toBe(true);
    rerender(<RecallOptionsPanel value={{ profile: 'SYSTEMATIZER' }} onChange={() => {}} />);
    expect(field('topK').placeholder).toBe('25');
    expect(field('lateralMaxResults').placeholder).toBe('8'); // floor(25 / 3)
    expect(field('lateralMode').checked).toBe(false);
    rerender(<RecallOptionsPanel value={{ profile: 'BALANCED', topK: 2 }} onChange={() => {}} />);
    expect(field('topK').value).toBe('2');
    expect(field('lateralMaxResults').placeholder).toBe('1'); // at least one
  });

  it('shows the INVALID_OPTION message for out-of-range values and does not call onChange', () => {
    const onChange = vi.fn();
    render(<RecallOptionsPanel value={{}} onChange={onChange} />);
    fireEvent.change(field('topK'), { target: { value: '0' } });
    expect(screen.getByTestId('recall-option-error-topK').textContent).toBe('Recall option "topK" must be an integer from 1 to 1000; got 0.');
    expect(field('topK').getAttribute('aria-invalid')).toBe('true');
    fireEvent.blur(field('topK'));

    fireEvent.change(field('hopDecay'), { target: { value: '0' } });
    fireEvent.blur(field('hopDecay'));
    expect(screen.getByTestId('recall-option-error-hopDecay').textContent).toBe(
      'Recall option "hopDecay" must be a number greater than 0 and at most 1; got 0.',
    );

    fireEvent.change(field('lateralDistanceThreshold'), { target: { value: 'far' } });
    fireEvent.blur(field('lateralDistanceThreshold'));
    expect(screen.getByTestId('recall-option-error-lateralDistanceThreshold').textContent).toBe(
      'Recall option "lateralDistanceThreshold" must be a number greater than 0 and at most 2; got "far".',
    );

    fireEvent.change(field('beamWidth'), { target: { value: '2.5' } });
    fireEvent.blur(field('beamWidth'));
    expect(screen.getByTestId('recall-option-error-beamWidth').textContent).toBe(
      'Recall option "beamWidth" must be an integer from 1 to 8; got 2.5.',
    );

    fireEvent.change(field('minCosine'), { target: { value: '-1.5' } });
    fireEvent.blur(field('minCosine'));
    expect(screen.getByTestId('recall-option-error-minCosine').textContent).toBe(
      'Recall option "minCosine" must be a number from -1 to 1; got -1.5.',
    );
    expect(onChange).not.toHaveBeenCalled();

    // Fixing the value clears the message.
    fireEvent.change(field('topK'), { target: { value: '5' } });
    expect(screen.queryByTestId('recall-option-error-topK')).toBeNull();
  });

  it('commits a valid value on Enter or blur, as a partial change', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<RecallOptionsPanel value={{ profile: 'DIVERGENT' }} onChange={onChange} defaultAdvancedOpen />);
    await user.type(field('topK'), '20{Enter}');
    expect(onChange).toHaveBeenLastCalledWith({ topK: 20 });
    await user.type(field('lateralMinTagOverlap'), '0.3');
    expect(onChange).toHaveBeenCalledTimes(1);
    await user.tab();
    expect(onChange).toHaveBeenLastCalledWith({ lateralMinTagOverlap: 0.3 });
  });

  it('an emptied field goes back to the profile default', () => {
    const onChange = vi.fn();
    render(<RecallOptionsPanel value={{ topK: 7 }} onChange={onChange} />);
    fireEvent.change(field('topK'), { target: { value: '' } });
    fireEvent.blur(field('topK'));
    expect(onChange).toHaveBeenCalledWith({ topK: undefined });
  });

  it('assocHops is a 0..3 choice committed at once', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<RecallOptionsPanel value={{}} onChange={onChange} />);
    const select = screen.getByLabelText('Associative hops') as HTMLSelectElement;
    expect(within(select).getAllByRole('option').map((o) => o.getAttribute('value'))).toEqual(['', '0', '1', '2', '3']);
    await user.selectOptions(select, '2');
    expect(onChange).toHaveBeenCalledWith({ assocHops: 2 });
  });

  it('the lateral toggle and the reset button report explicit changes', () => {
    const onChange = vi.fn();
    const value: RecallOptionsInput = { profile: 'BALANCED', topK: 5, beamWidth: 3 };
    render(<RecallOptionsPanel value={value} onChange={onChange} />);
    fireEvent.click(field('lateralMode'));
    expect(onChange).toHaveBeenLastCalledWith({ lateralMode: true });
    fireEvent.click(screen.getByRole('button', { name: 'Back to profile defaults' }));
    const last = onChange.mock.calls.at(-1)![0] as RecallOptionsInput;
    expect(Object.keys(last).sort()).toEqual(
      // the Deeper search options (expandHops, multiQuery, hyde, deepSearch, iterative) go back to their defaults too
      ['assocHops', 'beamWidth', 'deepSearch', 'expandHops', 'hopDecay', 'hyde', 'iterative', 'lateralDistanceThreshold', 'lateralMaxResults', 'lateralMinTagOverlap', 'lateralMode', 'minCosine', 'multiQuery', 'topK'].sort(),
    );
    expect(Object.values(last).every((v) => v === undefined)).toBe(true);
  });

  it('labels every advanced control', () => {
    render(<RecallOptionsPanel value={{}} onChange={() => {}} />);
    for (const label of ['Results (topK)', 'Lateral distance threshold', 'Lateral max results', 'Lateral min tag overlap', 'Associative hops', 'Beam width', 'Min cosine', 'Hop decay']) {
      expect(['INPUT', 'SELECT']).toContain(screen.getByLabelText(label).tagName);
    }
  });

  it('Deeper search: the entity expansion, rewordings and the sketched answer report their options', () => {
    const onChange = vi.fn();
    render(<RecallOptionsPanel value={{}} onChange={onChange} defaultAdvancedOpen />);
    fireEvent.click(screen.getByTestId('recall-option-expandHops'));
    expect(onChange).toHaveBeenLastCalledWith({ expandHops: 1 });
    fireEvent.change(screen.getByTestId('recall-option-multiQuery'), { target: { value: '3' } });
    expect(onChange).toHaveBeenLastCalledWith({ multiQuery: 3 });
    fireEvent.change(screen.getByTestId('recall-option-multiQuery'), { target: { value: '1' } });
    expect(onChange).toHaveBeenLastCalledWith({ multiQuery: undefined });
    fireEvent.click(screen.getByTestId('recall-option-hyde'));
    expect(onChange).toHaveBeenLastCalledWith({ hyde: true });
  });
});

