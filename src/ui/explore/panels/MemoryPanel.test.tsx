// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { formatDate } from '../../app/format';
import { MemoryPanel } from './MemoryPanel';
import { withFeedbackIcon } from './MemoryFeedback';
import { formatReinforce, type RecallResult } from '../../../core/recall';
import { AppError } from '../../../core/errors';
import type { Memory } from '../../../core/types';

afterEach(cleanup);

const T0 = Date.UTC(2026, 5, 14, 9, 30);
const memory: Memory = {
  id: 'mem-123',
  text: 'Fed the starter at 9.\nIt doubled by noon; the kitchen was 24°C.',
  tags: ['sourdough', 'baking'],
  suggestedTags: ['starter', 'baking', 'kitchen'],
  importance: 0.7,
  source: 'notebook',
  createdAt: T0,
  updatedAt: T0,
  validFrom: T0,
  validTo: null,
  sessionId: 's-2026-06-14-a',
  status: 'active',
  deletedAt: null,
  embedTruncated: false,
};
const why = { lexical: 0.2, semantic: 0.3, bm25: 3.1, cosine: 0.62, matchedTerms: ['starter'] };

describe('MemoryPanel', () => {
  it('is a labelled modal dialog showing the memory', () => {
    render(<MemoryPanel memory={memory} onClose={() => {}} />);
    const dialog = screen.getByRole('dialog', { name: 'Fed the starter at 9.' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(dialog.getAttribute('data-testid')).toBe('memory-panel');
    expect(screen.getByTestId('memory-text').textContent).toBe(memory.text);
    expect(screen.getByTestId('memory-importance').textContent?.trim()).toBe('0.70');
    expect(screen.getByTestId('memory-source').textContent).toBe('notebook');
    expect(screen.getByTestId('memory-status').textContent).toBe('active');
    expect(screen.getByTestId('memory-created').getAttribute('dateTime')).toBe('2026-06-14T09:30:00.000Z');
    expect(screen.getByTestId('memory-valid').textContent).toBe('still true');
    // the session and the id are the machine's names: folded behind "details", not among the plain facts
    expect(screen.getByTestId('memory-details').textContent).not.toContain('mem-123');
    const ids = screen.getByTestId('memory-ids') as HTMLDetailsElement;
    expect(ids.open).toBe(false);
    expect(ids.textContent).toBe('detailsSessions-2026-06-14-aIdmem-123');
    // the one date format of the app (src/ui/app/format.ts), when it happened first
    expect(screen.getByTestId('memory-happened').textContent).toBe(formatDate(Date.parse('2026-06-14T09:30:00.000Z')));
    // Read-only tags without onTagsChange; the suggestion already accepted ("baking") is not offered.
    expect(within(screen.getByRole('list', { name: 'Tags' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['sourdough', 'baking']);
    expect(within(screen.getByRole('list', { name: 'Suggested tags' })).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['starter', 'kitchen']);
    expect(screen.queryByRole('button', { name: /Remove tag/ })).toBeNull();
    expect(screen.queryByTestId('memory-retrieval')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Reinforce' })).toBeNull();
  });

  it('collapses a long text behind a toggle', async () => {
    const user = userEvent.setup();
    const long = { ...memory, text: 'word '.repeat(200).trim() }; // 999 characters
    render(<MemoryPanel memory={long} onClose={() => {}} collapseAfter={100} />);
    const text = screen.getByTestId('memory-text');
    expect(text.textContent).toBe(`${long.text.slice(0, 100).trimEnd()}…`);
    const toggle = screen.getByRole('button', { name: 'Show all (999 characters)' });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    expect(toggle.getAttribute('aria-controls')).toBe(text.id);
    await user.click(toggle);
    expect(text.textContent).toBe(long.text);
    expect(screen.getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).toBe('true');
  });

  it('accepts a suggested tag with one click, adds typed tags (normalised) and removes tags', async () => {
    const user = userEvent.setup();
    const onTagsChange = vi.fn();
    render(<MemoryPanel memory={memory} onClose={() => {}} onTagsChange={onTagsChange} />);
    await user.click(screen.getByRole('button', { name: 'Accept suggested tag kitchen' }));
    expect(onTagsChange).toHaveBeenLastCalledWith(['sourdough', 'baking', 'kitchen']);
    await user.type(screen.getByLabelText('Add a tag'), 'Rye Flour, baking{Enter}');
    expect(onTagsChange).toHaveBeenLastCalledWith(['sourdough', 'baking', 'rye-flour']);
    expect((screen.getByLabelText('Add a tag') as HTMLInputElement).value).toBe('');
    await user.click(screen.getByRole('button', { name: 'Remove tag sourdough' }));
    expect(onTagsChange).toHaveBeenLastCalledWith(['baking']);
    expect(onTagsChange).toHaveBeenCalledTimes(3);
  });

  it('keeps tags in step with the parent (controlled)', async () => {
    const user = userEvent.setup();
    function Host() {
      const [m, setM] = useState(memory);
      return <MemoryPanel memory={m} onClose={() => {}} onTagsChange={(tags) => setM({ ...m, tags })} />;
    }
    render(<Host />);
    await user.click(screen.getByRole('button', { name: 'Accept suggested tag starter' }));
    // accepted: now among the tags, no longer a suggestion
    expect(screen.getByTestId('memory-tag-starter').closest('ul')?.getAttribute('aria-label')).toBe('Tags');
    expect(screen.queryByRole('button', { name: 'Accept suggested tag starter' })).toBeNull();
  });

  it('still closes on Escape after a suggested tag was accepted (its chip is gone; focus stays in the panel)', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    function Host() {
      const [m, setM] = useState(memory);
      return <MemoryPanel memory={m} onClose={onClose} onTagsChange={(tags) => setM({ ...m, tags })} />;
    }
    render(<Host />);
    await user.click(screen.getByRole('button', { name: 'Accept suggested tag kitchen' }));
    expect(screen.queryByRole('button', { name: 'Accept suggested tag kitchen' })).toBeNull();
    expect(screen.getByTestId('memory-panel').contains(document.activeElement)).toBe(true);
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes on Escape even when focus fell to the page body', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(<MemoryPanel memory={memory} onClose={onClose} modal={false} />);
    (document.activeElement as HTMLElement | null)?.blur();
    expect(document.activeElement).toBe(document.body);
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('shows an associative chain query -> m1 -> m2 -> this memory with hops and cosines', () => {
    const result: RecallResult = {
      id: 'mem-123',
      score: 0.2765,
      mode: 'associative',
      why,
      chain: [
        { id: 'm1', hop: 0, cosine: 0.81 },
        { id: 'm2', hop: 1, cosine: 0.77 },
        { id: 'mem-123', hop: 2, cosine: 0.745 },
      ],
    };
    const labels: Record<string, string> = { m1: 'Grandma’s notes', m2: 'Rye ratio' };
    render(<MemoryPanel memory={memory} result={result} queryText="bread" labelFor={(id) => labels[id] ?? id} onClose={() => {}} />);
    expect(screen.getByTestId('memory-mode').textContent).toBe('associative');
    expect(screen.getByTestId('memory-panel').getAttribute('data-mode')).toBe('associative');
    expect(screen.getByTestId('memory-score').textContent).toBe('0.277');
    const steps = within(screen.getByRole('list', { name: 'Association chain' })).getAllByRole('listitem').map((li) => li.textContent);
    expect(steps).toEqual([
      'bread',
      '→ Grandma’s notes (hop 0, cos 0.81)',
      '→ Rye ratio (hop 1, cos 0.77)',
      '→ this memory (hop 2, cos 0.74)',
    ]);
  });

  it('shows the lateral details', () => {
    const result: RecallResult = { id: 'mem-123', score: 0.3, mode: 'lateral', why, distance: 1.31, tagOverlap: 0.5, lateralScore: 0.199, feedbackFactor: 1.12 };
    render(<MemoryPanel memory={memory} result={result} onClose={() => {}} />);
    expect(screen.getByTestId('memory-mode').textContent).toBe('lateral');
    expect(screen.getByTestId('memory-distance').textContent).toBe('1.31');
    expect(screen.getByTestId('memory-tag-overlap').textContent).toBe('50%');
    expect(screen.getByTestId('memory-lateral-score').textContent).toBe('0.199');
    expect(screen.getByTestId('memory-feedback-factor').textContent).toBe('×1.12');
    expect(screen.queryByTestId('memory-chain')).toBeNull();
  });

  it('renders the explanation slot', () => {
    render(<MemoryPanel memory={memory} onClose={() => {}} explanation={<div data-testid="slot">spaces</div>} />);
    expect(within(screen.getByTestId('memory-panel')).getByTestId('slot').textContent).toBe('spaces');
  });

  it('Reinforce passes the valence and shows the returned confirmation with its icon', async () => {
    const user = userEvent.setup();
    const onReinforce = vi.fn((v: number) => Promise.resolve(formatReinforce('mem-123', v, true)));
    const result: RecallResult = { id: 'mem-123', score: 0.3, mode: 'lateral', why };
    render(<MemoryPanel memory={memory} result={result} onClose={() => {}} onReinforce={onReinforce} onSuppress={() => {}} />);
    expect((screen.getByLabelText('Valence') as HTMLInputElement).value).toBe('50');
    await user.click(screen.getByRole('button', { name: 'Reinforce' }));
    expect(onReinforce).toHaveBeenCalledWith(50);
    await waitFor(() =>
      expect(screen.getByTestId('memory-feedback-message').textContent).toBe(
        "👍 Reinforced 'mem-123' with valence=50 (lateral result — feedback recorded)",
      ),
    );
  });

  it('keeps focus on Reinforce while the feedback is recorded, so Escape still closes the dialog', async () => {
    const user = userEvent.setup();
    let finish: (text: string) => void = () => {};
    const onReinforce = vi.fn(() => new Promise<string>((resolve) => (finish = resolve)));
    const onClose = vi.fn();
    render(<MemoryPanel memory={memory} onClose={onClose} onReinforce={onReinforce} onSuppress={() => {}} />);
    const button = screen.getByRole('button', { name: 'Reinforce' });
    await user.click(button);
    expect(button.getAttribute('aria-disabled')).toBe('true');
    await user.click(button); // ignored while busy
    expect(onReinforce).toHaveBeenCalledTimes(1);
    finish('recorded');
    await waitFor(() => expect(screen.getByTestId('memory-feedback-message').textContent).toContain('recorded'));
    expect(document.activeElement).toBe(button);
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalled();
  });

  it('Reinforce without a returned text shows the standard reply; negative valence gets a thumbs down', async () => {
    const user = userEvent.setup();
    const onReinforce = vi.fn();
    render(<MemoryPanel memory={memory} onClose={() => {}} onReinforce={onReinforce} />);
    const valence = screen.getByLabelText('Valence');
    await user.clear(valence);
    await user.type(valence, '-30');
    await user.click(screen.getByRole('button', { name: 'Reinforce' }));
    expect(onReinforce).toHaveBeenCalledWith(-30);
    await waitFor(() => expect(screen.getByTestId('memory-feedback-message').textContent).toBe("👎 Reinforced 'mem-123' with valence=-30"));
  });

  it('refuses a valence out of range without calling back', async () => {
    const user = userEvent.setup();
    const onReinforce = vi.fn();
    render(<MemoryPanel memory={memory} onClose={() => {}} onReinforce={onReinforce} />);
    fireEvent.change(screen.getByLabelText('Valence'), { target: { value: '150' } });
    await user.click(screen.getByRole('button', { name: 'Reinforce' }));
    expect(onReinforce).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('Valence must be a number from -100 to 100; got 150.');
    expect(screen.getByTestId('memory-feedback-message').textContent).toBe('');
  });

  it('Suppress sends the reason and shows the reply; a failure is shown as an alert', async () => {
    const user = userEvent.setup();
    const onSuppress = vi.fn().mockResolvedValueOnce("Suppressed 'mem-123'").mockRejectedValueOnce(new AppError('NOT_FOUND'));
    render(<MemoryPanel memory={memory} onClose={() => {}} onSuppress={onSuppress} />);
    await user.type(screen.getByLabelText('Reason'), '  irrelevant ');
    await user.click(screen.getByRole('button', { name: 'Suppress' }));
    expect(onSuppress).toHaveBeenCalledWith('irrelevant');
    await waitFor(() => expect(screen.getByTestId('memory-feedback-message').textContent).toBe("Suppressed 'mem-123'"));
    await user.click(screen.getByRole('button', { name: 'Suppress' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('That memory no longer exists.'));
    expect(screen.getByTestId('memory-feedback-message').textContent).toBe('');
  });

  it('refuses a suppression reason over 500 characters', async () => {
    const onSuppress = vi.fn();
    render(<MemoryPanel memory={memory} onClose={() => {}} onSuppress={onSuppress} />);
    fireEvent.change(screen.getByLabelText('Reason'), { target: { value: 'x'.repeat(501) } });
    fireEvent.click(screen.getByRole('button', { name: 'Suppress' }));
    expect(onSuppress).not.toHaveBeenCalled();
    expect(screen.getByRole('alert').textContent).toBe('A reason must be text of at most 500 characters.');
  });

  it('Enter on the Reinforce button reinforces', async () => {
    const user = userEvent.setup();
    const onReinforce = vi.fn(() => 'ok');
    render(<MemoryPanel memory={memory} onClose={() => {}} onReinforce={onReinforce} />);
    screen.getByRole('button', { name: 'Reinforce' }).focus();
    await user.keyboard('{Enter}');
    expect(onReinforce).toHaveBeenCalledWith(50);
    await waitFor(() => expect(screen.getByTestId('memory-feedback-message').textContent).toBe('👍 ok'));
  });

  it('moves focus in, traps Tab, closes on Escape and gives focus back', async () => {
    const user = userEvent.setup();
    function Host() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            Open memory
          </button>
          {open && <MemoryPanel memory={memory} onClose={() => setOpen(false)} onTagsChange={() => {}} onReinforce={() => 'ok'} onSuppress={() => 'ok'} />}
        </>
      );
    }
    render(<Host />);
    const opener = screen.getByRole('button', { name: 'Open memory' });
    await user.click(opener);
    const close = screen.getByRole('button', { name: 'Close memory details' });
    expect(document.activeElement).toBe(close);

    // Shift+Tab from the first control wraps to the last one (Suppress), Tab from there wraps back.
    await user.keyboard('{Shift>}{Tab}{/Shift}');
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Suppress' }));
    await user.tab();
    expect(document.activeElement).toBe(close);
    // Tabbing through every control never leaves the dialog.
    const panel = screen.getByTestId('memory-panel');
    for (let i = 0; i < 15; i++) {
      await user.tab();
      expect(panel.contains(document.activeElement)).toBe(true);
    }

    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('memory-panel')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });

  it('the close button and a backdrop click close it', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(<MemoryPanel memory={memory} onClose={onClose} />);
    await user.click(screen.getByRole('button', { name: 'Close memory details' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.mouseDown(screen.getByTestId('memory-panel').parentElement!);
    expect(onClose).toHaveBeenCalledTimes(2);
    fireEvent.mouseDown(screen.getByTestId('memory-text'));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('as a side panel it does not trap focus but still closes on Escape', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(
      <>
        <MemoryPanel memory={memory} onClose={onClose} modal={false} />
        <button type="button">Elsewhere</button>
      </>,
    );
    expect(screen.getByRole('dialog').getAttribute('aria-modal')).toBeNull();
    screen.getByRole('button', { name: 'Elsewhere' }).focus();
    expect(document.activeElement?.textContent).toBe('Elsewhere');
    screen.getByRole('button', { name: 'Close memory details' }).focus();
    await user.keyboard('{Escape}');
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('opening another memory clears the previous reply and collapses the text again', async () => {
    const user = userEvent.setup();
    const longer = { ...memory, text: 'x'.repeat(50) };
    const { rerender } = render(<MemoryPanel memory={longer} onClose={() => {}} onReinforce={() => 'done'} collapseAfter={10} />);
    await user.click(screen.getByRole('button', { name: 'Show all (50 characters)' }));
    await user.click(screen.getByRole('button', { name: 'Reinforce' }));
    await waitFor(() => expect(screen.getByTestId('memory-feedback-message').textContent).toBe('👍 done'));
    rerender(<MemoryPanel memory={{ ...longer, id: 'mem-456' }} onClose={() => {}} onReinforce={() => 'done'} collapseAfter={10} />);
    expect(screen.getByTestId('memory-feedback-message').textContent).toBe('');
    expect(screen.getByTestId('memory-text').textContent).toBe('xxxxxxxxxx…');
  });

  it('withFeedbackIcon adds an icon once', () => {
    expect(withFeedbackIcon('Reinforced', 10)).toBe('👍 Reinforced');
    expect(withFeedbackIcon('👍 Reinforced', 10)).toBe('👍 Reinforced');
    expect(withFeedbackIcon('Reinforced', 0)).toBe('Reinforced');
  });
});

describe('MemoryPanel: a result deeper search or a later pass added (issue 11)', () => {
  it('says how it was found in the words of the results list, with the reader score', () => {
    const result = {
      id: 'mem-123',
      score: 0.45,
      mode: 'standard' as const,
      why,
      deep: { readerScore: 0.612, reasons: ['names Sam'], via: [{ strategy: 'temporal' as const, seed: 'mem-1', detail: '1 turn before' }], source: 'deep' as const },
    };
    render(<MemoryPanel memory={memory} result={result} onClose={() => {}} />);
    expect(screen.getByTestId('memory-added-by').textContent).toBe('Found by deeper search: said near a memory you found (1 turn before) (reader score 0.61)');
  });

  it('a later pass: its words; a first-search result (or one deeper search only read again) says nothing extra', () => {
    const later = { id: 'mem-123', score: 0.4, mode: 'standard' as const, why, iterative: { pass: 2, action: 'reformulate' as const, query: 'bread rise', grade: 0.7, words: 'pass 2: searched again as "bread rise"' } };
    const { unmount } = render(<MemoryPanel memory={memory} result={later} onClose={() => {}} />);
    expect(screen.getByTestId('memory-added-by').textContent).toBe('Found when looking again: pass 2: searched again as "bread rise"');
    unmount();
    const reread = { id: 'mem-123', score: 0.4, mode: 'standard' as const, why, deep: { readerScore: 0.5, reasons: [], via: [], source: 'primary' as const } };
    render(<MemoryPanel memory={memory} result={reread} onClose={() => {}} />);
    expect(screen.queryByTestId('memory-added-by')).toBeNull();
  });
});
