import { useEffect, useState } from 'react';
import type { ThemeChoice } from '../../state/ui-store';
import { useThemeChoice } from '../app/use-settings';

const NEXT: Record<ThemeChoice, ThemeChoice> = { system: 'light', light: 'dark', dark: 'system' };
const LABEL: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

function systemDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
}

/**
 * Puts the theme on <html>. Buttons and fields used to fade their background: on a switch each
 * faded from the old palette, and one whose style the browser had not recomputed yet (inside a
 * closed <details>, whose content Chromium skips) began its fade only when it was next looked at,
 * so buttons and fields were still light after a switch to dark. Backgrounds no longer fade
 * (app.css, panels.css), and the switch turns every other transition off (`html.theme-switching`)
 * until two frames later, so the whole page changes at once.
 */
export function applyTheme(root: HTMLElement, theme: 'light' | 'dark'): () => void {
  if (root.dataset.theme === theme) return () => undefined;
  root.classList.add('theme-switching');
  root.dataset.theme = theme;
  root.style.colorScheme = theme;
  void getComputedStyle(root).backgroundColor; // the new palette computed now, without transitions
  let frame = requestAnimationFrame(() => (frame = requestAnimationFrame(() => root.classList.remove('theme-switching'))));
  return () => {
    cancelAnimationFrame(frame);
    root.classList.remove('theme-switching');
  };
}

/** Applies the theme to <html data-theme> and cycles system -> light -> dark. */
export function ThemeToggle() {
  const [theme, setTheme] = useThemeChoice();
  const [sysDark, setSysDark] = useState(systemDark);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const mq = matchMedia('(prefers-color-scheme: dark)');
    const on = () => setSysDark(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  const effective = theme === 'system' ? (sysDark ? 'dark' : 'light') : theme;
  useEffect(() => applyTheme(document.documentElement, effective), [effective]);
  return (
    <button
      type="button"
      className="btn btn--ghost theme-toggle"
      data-testid="theme-toggle"
      onClick={() => setTheme(NEXT[theme])}
      aria-label={`Theme: ${LABEL[theme]}${theme === 'system' ? ` (${effective})` : ''}. Switch to ${LABEL[NEXT[theme]]}`}
      title={`Theme: ${LABEL[theme]}. Switch to ${LABEL[NEXT[theme]]}`}
    >
      <span aria-hidden="true">{effective === 'dark' ? '☾' : '☀'}</span> <span className="theme-toggle__text">{LABEL[theme]}</span>
    </button>
  );
}
