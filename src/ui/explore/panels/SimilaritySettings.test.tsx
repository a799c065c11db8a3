// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SimilaritySettings } from './SimilaritySettings';
import { DEFAULT_SIMILARITY_CONFIG, type SimilarityConfig } from '../../../core/spaces';

afterEach(cleanup);

const clone = (c: SimilarityConfig): SimilarityConfig => JSON.parse(JSON.stringify(c));
const input = (testId: string) => screen.getByTestId(testId) as HTMLInputElement;
const set = (testId: string, value: string) => fireEvent.change(input(testId), { target: { value } });

describe('SimilaritySettings', () => {
  it('shows the thresholds and weights of all 13 spaces; temporal rows are excluded and read-only', () => {
    render(<SimilaritySettings config={DEFAULT_SIMILARITY_CONFIG} onSave={() => {}} />);
    expect(screen.getByTestId('similarity-settings').querySelectorAll('[data-testid^="settings-row-"]')).toHaveLength(13);
    expect(input('settings-high-E1').value).toBe('0.75');
    expect(input('settings-low-E1').value).toBe('0.3');
    expect(input('settings-weight-E1').value).toBe('1');
    expect(input('settings-high-E7').value).toBe('0.8');
    expect(input('settings-low-E7').value).toBe('0.35');
    expect(input('settings-weight-E8').value).toBe('0.5');
    expect(input('settings-recent-hours').value).toBe('2');
    for (const id of ['E2', 'E3', 'E4']) {
      const row = screen.getByTestId(`settings-row-${id}`);
      expect(row.getAttribute('data-excluded')).toBe('true');
      expect(row.textContent).toContain('excluded (temporal)');
      expect(input(`settings-high-${id}`).disabled).toBe(true);
    }
    expect(screen.getByTestId('settings-row-E5').getAttribute('data-excluded')).toBe('false');
    // Labelled controls.
    expect(screen.getByLabelText('E6 Sparse high threshold')).toBe(input('settings-high-E6'));
    expect(screen.getByLabelText('E6 Sparse weight')).toBe(input('settings-weight-E6'));
  });

  it('refuses an out-of-range threshold with the validator message and does not save', () => {
    const onSave = vi.fn();
    render(<SimilaritySettings config={DEFAULT_SIMILARITY_CONFIG} onSave={onSave} />);
    set('settings-high-E1', '1.5');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).not.toHaveBeenCalled();
    const errors = screen.getByRole('alert');
    expect(errors.textContent).toContain('Invalid threshold in config: E1 (Semantic) threshold 1.5 must be in [0.0, 1.0]');
    expect(input('settings-high-E1').getAttribute('aria-invalid')).toBe('true');
    expect(input('settings-low-E1').getAttribute('aria-invalid')).toBeNull();
  });

  it('names text, negative weights, empty fields and a bad window exactly', () => {
    const onSave = vi.fn();
    render(<SimilaritySettings config={DEFAULT_SIMILARITY_CONFIG} onSave={onSave} />);
    set('settings-weight-E7', 'abc');
    set('settings-weight-E8', '-1');
    set('settings-low-E5', '');
    set('settings-recent-hours', '0');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).not.toHaveBeenCalled();
    const items = Array.from(screen.getByTestId('similarity-errors').querySelectorAll('li')).map((li) => li.textContent);
    expect(items).toEqual([
      'Invalid threshold in config: E5 (Causal) threshold (empty) must be in [0.0, 1.0]',
      'Invalid weight in config: E7 (Code) weight abc must be a finite number >= 0',
      'Invalid weight in config: E8 (Emotional) weight -1 must be a finite number >= 0',
      'Invalid recent window in config: 0 hours must be a finite number > 0',
    ]);
    expect(screen.getByTestId('similarity-errors').textContent).toContain('Not saved: 4 values are invalid.');
    expect(input('settings-recent-hours').getAttribute('aria-invalid')).toBe('true');
  });

  it('saves a valid edit as a full config', async () => {
    const onSave = vi.fn();
    render(<SimilaritySettings config={DEFAULT_SIMILARITY_CONFIG} onSave={onSave} />);
    set('settings-high-E1', '0.8');
    set('settings-weight-E9', '0.25');
    set('settings-recent-hours', '1.5');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    const saved = onSave.mock.calls[0][0] as SimilarityConfig;
    const expected = clone(DEFAULT_SIMILARITY_CONFIG);
    expected.highThresholds.E1 = 0.8;
    expected.weights.E9 = 0.25;
    expected.recentWindowHours = 1.5;
    expect(saved).toEqual(expected);
    expect(screen.queryByRole('alert')).toBeNull();
    await waitFor(() => expect(screen.getByTestId('settings-notice').textContent).toBe('Settings saved.'));
  });

  it('shows a rejected save (e.g. storage full) and keeps the form', async () => {
    const onSave = vi.fn().mockRejectedValue(new Error('The browser refused to store more data'));
    render(<SimilaritySettings config={DEFAULT_SIMILARITY_CONFIG} onSave={onSave} />);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toContain('The browser refused to store more data'));
    expect(screen.getByTestId('settings-notice').textContent).toBe('');
  });

  it('"Reset to defaults" restores DEFAULT_SIMILARITY_CONFIG (saved on Save)', async () => {
    const custom = clone(DEFAULT_SIMILARITY_CONFIG);
    custom.highThresholds.E1 = 0.9;
    custom.weights.E8 = 2;
    custom.recentWindowHours = 5;
    const onSave = vi.fn();
    render(<SimilaritySettings config={custom} onSave={onSave} />);
    expect(input('settings-high-E1').value).toBe('0.9');
    set('settings-low-E6', 'oops');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByRole('alert').textContent).toContain('oops');
    fireEvent.click(screen.getByRole('button', { name: 'Reset to defaults' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(input('settings-high-E1').value).toBe('0.75');
    expect(input('settings-weight-E8').value).toBe('0.5');
    expect(input('settings-low-E6').value).toBe('0.2');
    expect(input('settings-recent-hours').value).toBe('2');
    expect(onSave).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave.mock.calls[0][0]).toEqual(DEFAULT_SIMILARITY_CONFIG);
  });

  it('saves from the keyboard: Enter in a field, and Enter on the Save button', async () => {
    const user = userEvent.setup();
    const onSave = vi.fn();
    render(<SimilaritySettings config={DEFAULT_SIMILARITY_CONFIG} onSave={onSave} />);
    await user.clear(input('settings-high-E5'));
    await user.type(input('settings-high-E5'), '0.65{Enter}');
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect((onSave.mock.calls[0][0] as SimilarityConfig).highThresholds.E5).toBe(0.65);
    screen.getByRole('button', { name: 'Save' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(2));
  });

  it('shows each problem under its own field, and the summary beside Save (not above the table)', () => {
    render(<SimilaritySettings config={DEFAULT_SIMILARITY_CONFIG} onSave={() => {}} />);
    set('settings-weight-E8', 'abc');
    set('settings-recent-hours', '-1');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const w = screen.getByTestId('settings-error-weight-E8');
    expect(w.textContent).toContain('weight abc must be');
    expect(input('settings-weight-E8').getAttribute('aria-describedby')).toBe(w.id);
    expect(screen.getByTestId('settings-error-hours').textContent).toContain('Invalid recent window');
    expect(screen.queryByTestId('settings-error-high-E1')).toBeNull(); // a good field has no message
    // the summary follows the table and sits right before the Save button in reading order
    const table = screen.getByRole('table');
    const summary = screen.getByTestId('similarity-errors');
    const save = screen.getByTestId('settings-save');
    expect(table.compareDocumentPosition(summary) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(summary.compareDocumentPosition(save) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
