// The sticky header: the app's name (the page's one h1), the views, the encoder's status and the
// app-wide buttons (command palette, settings, theme). On a phone it is one short row: the views
// fold behind a button that names the current one, and the status shows as a dot.
import { useId } from 'react';
import { useUi, type View } from '../../state/ui-store';
import { ModelStatus } from '../components/ModelStatus';
import { ThemeToggle } from '../components/ThemeToggle';
import { isMac } from './ShortcutsDialog';
import { go } from './navigate';
import { useShell } from './shell-store';
import { KEEP_VIEWS } from '../app/routes';

export const TABS: readonly { view: View; label: string }[] = [
  { view: 'memories', label: 'Memories' },
  { view: 'graph', label: 'Explore' },
  { view: 'data', label: 'Your data' },
  { view: 'models', label: 'Model' },
];

export function AppHeader() {
  const view = useUi((s) => s.view);
  const { menuOpen, set } = useShell();
  const navId = useId();
  const current = TABS.find((t) => t.view === view)?.label ?? 'Memories'; // Trash and Review are in Memories
  const mod = isMac() ? '⌘' : 'Ctrl';
  return (
    <header className={`app-header${menuOpen ? ' app-header--menu' : ''}`} data-testid="app-header">
      <div className="brand">
        <img src="favicon.svg" alt="" width={28} height={28} />
        <h1 className="brand__name">Mnemograph</h1>
        <span className="brand__tag">your memories, on this device</span>
      </div>
      <button
        type="button"
        className="btn btn--secondary menu-toggle"
        aria-expanded={menuOpen}
        aria-controls={navId}
        data-testid="menu-toggle"
        onClick={() => set({ menuOpen: !menuOpen })}
      >
        <span className="sr-only">View: </span>
        {current}
        <span aria-hidden="true" className="menu-toggle__caret">
          ▾
        </span>
      </button>
      <nav id={navId} className={`views${menuOpen ? ' views--open' : ''}`} aria-label="Views">
        {TABS.map((t) => (
          <button
            key={t.view}
            type="button"
            className="views__tab"
            aria-current={view === t.view || (t.view === 'memories' && KEEP_VIEWS.includes(view)) ? 'page' : undefined}
            onClick={() => {
              set({ menuOpen: false });
              go(t.view);
            }}
            data-testid={`nav-${t.view}`}
          >
            {t.label}
          </button>
        ))}
      </nav>
      <div className="app-header__end">
        <ModelStatus />
        <div className="header-tools">
        <button
          type="button"
          className="btn btn--ghost header-btn"
          data-testid="open-palette"
          aria-label={`Command palette (${mod}+K)`}
          title={`Command palette (${mod}+K)`} // its name on hover when only the icon shows (below 1280 px)
          aria-keyshortcuts={isMac() ? 'Meta+K' : 'Control+K'}
          onClick={() => set({ paletteOpen: true, menuOpen: false })}
        >
          <span aria-hidden="true" className="header-btn__icon">
            ⌘
          </span>
          <span className="header-btn__text" aria-hidden="true">
            {mod}+K
          </span>
        </button>
        <button
          type="button"
          className="btn btn--ghost header-btn"
          data-testid="open-settings"
          aria-label="Settings"
          title="Settings"
          onClick={() => set({ settingsOpen: true, menuOpen: false })}
        >
          <span aria-hidden="true" className="header-btn__icon">
            ⚙
          </span>
          <span className="header-btn__text" aria-hidden="true">
            Settings
          </span>
        </button>
        <ThemeToggle />
        </div>
      </div>
    </header>
  );
}
