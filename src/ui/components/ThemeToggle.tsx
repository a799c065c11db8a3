import { useEffect, useState } from 'react';
import type { ThemeChoice } from '../../state/ui-store';
import { useThemeChoice } from '../app/use-settings';

const NEXT: Record<ThemeChoice, ThemeChoice> = { system: 'light', light: 'dark', dark: 'system' };
const LABEL: Record<ThemeChoice, string> = { system: 'System', light: 'Light', dark: 'Dark' };

function systemDark(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
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
  useEffect(() => {
    document.documentElement.dataset.theme = effective;
    document.documentElement.style.colorScheme = effective;
  }, [effective]);
  return (
    <button
      type="button"
      className="btn btn--ghost theme-toggle"
      data-testid="theme-toggle"
      onClick={() => setTheme(NEXT[theme])}
      aria-label={`Theme: ${LABEL[theme]}${theme === 'system' ? ` (${effective})` : ''}. Switch to ${LABEL[NEXT[theme]]}`}
    >
      <span aria-hidden="true">{effective === 'dark' ? '☾' : '☀'}</span> {LABEL[theme]}
    </button>
  );
}
