import { describe, expect, it } from 'vitest';
import { isTypingTarget, shortcutOf, type KeyLike } from './keys';

const key = (k: string, mods: Partial<KeyLike> = {}, target: KeyLike['target'] = { tagName: 'BODY' }): KeyLike => ({
  key: k,
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  target,
  ...mods,
});

describe('shortcutOf', () => {
  it('opens the palette with Ctrl+K or Cmd+K, even while typing', () => {
    expect(shortcutOf(key('k', { ctrlKey: true }))).toBe('palette');
    expect(shortcutOf(key('K', { metaKey: true }))).toBe('palette');
    expect(shortcutOf(key('k', { ctrlKey: true }, { tagName: 'TEXTAREA' }))).toBe('palette');
    expect(shortcutOf(key('k', { ctrlKey: true, altKey: true }))).toBeNull();
    expect(shortcutOf(key('k'))).toBeNull();
  });

  it('"/" searches and "?" helps outside text fields only', () => {
    expect(shortcutOf(key('/'))).toBe('search');
    expect(shortcutOf(key('?'))).toBe('help');
    expect(shortcutOf(key('/', {}, { tagName: 'BUTTON' }))).toBe('search');
    expect(shortcutOf(key('/', {}, { tagName: 'INPUT', type: 'search' }))).toBeNull();
    expect(shortcutOf(key('?', {}, { tagName: 'TEXTAREA' }))).toBeNull();
    expect(shortcutOf(key('?', {}, { tagName: 'DIV', isContentEditable: true }))).toBeNull();
    expect(shortcutOf(key('/', { ctrlKey: true }))).toBeNull();
    expect(shortcutOf(key('a'))).toBeNull();
  });
});

describe('isTypingTarget', () => {
  it('counts text inputs, textareas, selects and editable content; not buttons, checkboxes or ranges', () => {
    expect(isTypingTarget({ tagName: 'INPUT', type: 'text' })).toBe(true);
    expect(isTypingTarget({ tagName: 'input' })).toBe(true); // no type = text
    expect(isTypingTarget({ tagName: 'INPUT', type: 'number' })).toBe(true);
    expect(isTypingTarget({ tagName: 'SELECT' })).toBe(true);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'checkbox' })).toBe(false);
    expect(isTypingTarget({ tagName: 'INPUT', type: 'range' })).toBe(false);
    expect(isTypingTarget({ tagName: 'BUTTON' })).toBe(false);
    expect(isTypingTarget(null)).toBe(false);
  });
});
