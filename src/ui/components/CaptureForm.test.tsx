// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AppError } from '../../core/errors';
import { MAX_EMBED_CHARS } from '../../embed/types';

// A plain stub, not vi.fn: a vi.fn whose promise rejects fails the test even when handled.
const calls: unknown[] = [];
let impl: () => Promise<unknown> = async () => ({});
vi.mock('../../services', () => ({
  services: () => ({
    saveMemory: (input: unknown) => {
      calls.push(input);
      return impl();
    },
  }),
}));

const { CaptureForm } = await import('./CaptureForm');
const { useCaptureDraft } = await import('./capture-draft');

beforeEach(() => {
  calls.length = 0;
  impl = async () => ({});
  useCaptureDraft.getState().clear(); // the draft outlives a form: each test starts from an empty one
});
afterEach(cleanup);

describe('CaptureForm', () => {
  it('keeps what was typed when the form leaves the screen and comes back (another view), until it is saved', async () => {
    const first = render(<CaptureForm disabled={false} />);
    fireEvent.change(screen.getByLabelText('What do you want to remember?'), { target: { value: 'Half a thought about the fence' } });
    fireEvent.change(screen.getByLabelText('Tags'), { target: { value: 'garden' } });
    first.unmount();
    render(<CaptureForm disabled={false} />);
    const text = screen.getByLabelText('What do you want to remember?') as HTMLTextAreaElement;
    expect(text.value).toBe('Half a thought about the fence');
    expect((screen.getByLabelText('Tags') as HTMLInputElement).value).toBe('garden');
    fireEvent.click(screen.getByRole('button', { name: 'Save memory' }));
    await waitFor(() => expect(text.value).toBe(''));
    expect(calls).toEqual([expect.objectContaining({ text: 'Half a thought about the fence', tags: ['garden'] })]);
    expect(useCaptureDraft.getState().tags).toBe('');
  });

  it('shows the tags as they will be saved: trimmed, lowercased, spaces to dashes, deduplicated', () => {
    render(<CaptureForm disabled={false} />);
    fireEvent.change(screen.getByLabelText('Tags'), { target: { value: ' Road Trip, road trip,, Car ' } });
    const chips = screen.getByRole('list', { name: 'Tags as they will be saved' });
    expect([...chips.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['#road-trip', '#car']);
  });

  it('saves with Ctrl+Enter, passing normalised tags, default importance 0.5 and no empty source', async () => {
    render(<CaptureForm disabled={false} />);
    const text = screen.getByLabelText('What do you want to remember?');
    fireEvent.change(text, { target: { value: 'Repaired the bike' } });
    fireEvent.change(screen.getByLabelText('Tags'), { target: { value: 'Bike, Errands' } });
    fireEvent.keyDown(text, { key: 'Enter', ctrlKey: true });
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toEqual({ text: 'Repaired the bike', tags: ['bike', 'errands'], importance: 0.5, source: undefined });
    await waitFor(() => expect((text as HTMLTextAreaElement).value).toBe(''));
  });

  it('saving text already stored writes nothing, keeps the text and offers to open the saved memory', async () => {
    impl = async () => ({ kind: 'already-saved', memory: { id: 'm-1' } });
    render(<CaptureForm disabled={false} />);
    const text = screen.getByLabelText('What do you want to remember?');
    fireEvent.change(text, { target: { value: 'Repaired the bike' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save memory' }));
    const note = await screen.findByTestId('capture-duplicate');
    expect(note.textContent).toContain('You already saved this exact text');
    expect((text as HTMLTextAreaElement).value).toBe('Repaired the bike');
    fireEvent.click(screen.getByRole('button', { name: 'Open the saved memory' }));
    expect(window.location.hash).toBe('#/memories?m=m-1');
  });

  it('sends "when did this happen" as the memory\'s time, createdAt (local midnight of that day), as the editor does; today = now', async () => {
    render(<CaptureForm disabled={false} />);
    fireEvent.change(screen.getByLabelText('What do you want to remember?'), { target: { value: 'Planted the roses' } });
    fireEvent.change(screen.getByLabelText('When did this happen? (optional)'), { target: { value: '2024-03-05' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save memory' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ text: 'Planted the roses', createdAt: new Date(2024, 2, 5).getTime() });
    expect(calls[0]).not.toHaveProperty('validFrom'); // the services make it true from createdAt
    const now = new Date();
    const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}-${String(now.getDate()).padStart(2, '0')}`;
    fireEvent.change(screen.getByLabelText('What do you want to remember?'), { target: { value: 'Watered them' } });
    fireEvent.change(screen.getByLabelText('When did this happen? (optional)'), { target: { value: today } });
    fireEvent.click(screen.getByRole('button', { name: 'Save memory' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]).not.toHaveProperty('createdAt');
  });

  it('says when the day chosen has not come yet (a slip of the year), and still saves it as chosen', async () => {
    render(<CaptureForm disabled={false} />);
    const when = screen.getByLabelText('When did this happen? (optional)');
    const next = new Date().getFullYear() + 36;
    fireEvent.change(when, { target: { value: '2024-03-05' } });
    expect(screen.queryByTestId('capture-future-day')).toBeNull(); // a past day: nothing to say
    fireEvent.change(when, { target: { value: `${next}-03-05` } });
    expect(screen.getByTestId('capture-future-day').textContent).toBe(
      `That day has not come yet: the memory will be dated ${next}-03-05. Check the year if you meant a day that has passed.`,
    );
    fireEvent.change(screen.getByLabelText('What do you want to remember?'), { target: { value: 'Dentist for the crown' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save memory' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ createdAt: new Date(next, 2, 5).getTime() });
  });

  it('plain Enter does not submit (multi-line text)', () => {
    render(<CaptureForm disabled={false} />);
    const text = screen.getByLabelText('What do you want to remember?');
    fireEvent.change(text, { target: { value: 'line one' } });
    fireEvent.keyDown(text, { key: 'Enter' });
    expect(calls).toHaveLength(0);
  });

  it('shows the AppError message and keeps the text when saving fails', async () => {
    impl = async () => {
      throw new AppError('QUOTA_EXCEEDED');
    };
    render(<CaptureForm disabled={false} />);
    const text = screen.getByLabelText('What do you want to remember?');
    fireEvent.change(text, { target: { value: 'keep me' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save memory' }));
    const alert = await screen.findByTestId('capture-error');
    expect(alert.getAttribute('data-code')).toBe('QUOTA_EXCEEDED');
    expect(alert.textContent).toContain('Nothing was saved');
    expect((text as HTMLTextAreaElement).value).toBe('keep me');
    expect(calls).toHaveLength(1);
  });

  it('notes the bounded prefix only above MAX_EMBED_CHARS', () => {
    render(<CaptureForm disabled={false} />);
    const text = screen.getByLabelText('What do you want to remember?');
    fireEvent.change(text, { target: { value: 'a'.repeat(MAX_EMBED_CHARS) } });
    expect(screen.queryByTestId('truncation-note')).toBeNull();
    fireEvent.change(text, { target: { value: 'a'.repeat(MAX_EMBED_CHARS + 1) } });
    expect(screen.getByTestId('truncation-note').textContent).toBe(
      'Stored whole; only the first 2,000 characters are used for search.',
    );
  });
  it('"A rule to keep in mind" adds the constraint tag deeper search reads (issue 11), and unticking removes it', async () => {
    render(<CaptureForm disabled={false} />);
    const tags = screen.getByLabelText('Tags') as HTMLInputElement;
    const rule = screen.getByRole('checkbox', { name: 'A rule to keep in mind' }) as HTMLInputElement;
    fireEvent.change(tags, { target: { value: 'work' } });
    expect(rule.checked).toBe(false);
    fireEvent.click(rule);
    expect(tags.value).toBe('work, constraint');
    expect(rule.checked).toBe(true);
    fireEvent.click(rule);
    expect(tags.value).toBe('work');
    fireEvent.change(tags, { target: { value: 'work, Constraint' } }); // typed by hand: the box follows
    expect(rule.checked).toBe(true);
    fireEvent.change(screen.getByLabelText('What do you want to remember?'), { target: { value: 'Never book meetings on Fridays' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save memory' }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]).toMatchObject({ text: 'Never book meetings on Fridays', tags: ['work', 'constraint'] });
  });
});
