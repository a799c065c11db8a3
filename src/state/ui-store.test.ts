import { afterEach, describe, expect, it } from 'vitest';
import { useUi } from './ui-store';

afterEach(() => useUi.setState({ toasts: [] }));

describe('toasts', () => {
  it('the same message does not stack: four quick saves show one toast', () => {
    const { pushToast } = useUi.getState();
    for (let i = 0; i < 4; i++) pushToast({ kind: 'success', message: 'Memory saved.' });
    const toasts = useUi.getState().toasts;
    expect(toasts.map((t) => t.message)).toEqual(['Memory saved.']);
  });

  it('a repeated message moves to the end with a fresh id; different ones stay, at most four', () => {
    const { pushToast } = useUi.getState();
    const first = pushToast({ kind: 'success', message: 'A' });
    pushToast({ kind: 'error', message: 'B' });
    const again = pushToast({ kind: 'success', message: 'A' });
    expect(again).not.toBe(first);
    expect(useUi.getState().toasts.map((t) => [t.message, t.id])).toEqual([
      ['B', first + 1],
      ['A', again],
    ]);
    pushToast({ kind: 'error', message: 'A' }); // same words, other kind: its own toast
    for (const m of ['C', 'D', 'E']) pushToast({ kind: 'info', message: m });
    expect(useUi.getState().toasts.map((t) => t.message)).toEqual(['A', 'C', 'D', 'E']);
  });
});
