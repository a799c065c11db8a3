// The app's keyboard shortcuts, decided from a key event alone (pure, tested in keys.test.ts):
// Ctrl/Cmd+K opens the command palette anywhere; "/" focuses search and "?" shows the shortcuts,
// but only when the person is not typing in a text field (there they are just characters).

export type Shortcut = 'palette' | 'search' | 'help';

/** What a shortcut needs to know about the key event and where it happened. */
export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  /** The focused element (event.target): its tag name, type and editability. */
  target: { tagName?: string; type?: string; isContentEditable?: boolean } | null;
}

const TEXT_INPUT_TYPES = new Set(['text', 'search', 'email', 'url', 'tel', 'password', 'number', 'date', 'datetime-local', 'month', 'time', 'week', '']);

/** True when keys typed here are text: a textarea, a text-like input, a select, or editable content. */
export function isTypingTarget(t: KeyLike['target']): boolean {
  if (!t) return false;
  if (t.isContentEditable) return true;
  const tag = (t.tagName ?? '').toUpperCase();
  if (tag === 'TEXTAREA' || tag === 'SELECT') return true;
  if (tag === 'INPUT') return TEXT_INPUT_TYPES.has((t.type ?? '').toLowerCase());
  return false;
}

/** The shortcut a key press means, or null. */
export function shortcutOf(e: KeyLike): Shortcut | null {
  if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'k') return 'palette';
  if (e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return null;
  if (e.key === '/') return 'search';
  if (e.key === '?') return 'help';
  return null;
}

/** The shortcuts as the help lists them ("Ctrl" is shown as ⌘ on a Mac). */
export function shortcutList(mac: boolean): { keys: string[]; does: string }[] {
  const mod = mac ? '⌘' : 'Ctrl';
  return [
    { keys: [mod, 'K'], does: 'Open the command palette: every action, by name' },
    { keys: ['/'], does: 'Go to search (Memories) or to the question box (Explore)' },
    { keys: ['?'], does: 'Show these shortcuts' },
    { keys: ['↑', '↓'], does: 'In the palette: move through the actions' },
    { keys: ['Enter'], does: 'In the palette: run the chosen action' },
    { keys: ['Esc'], does: 'Close the palette, a dialog or the open memory' },
    { keys: [mod, 'Enter'], does: 'Save the memory you are writing' },
  ];
}
