import { useEffect } from 'react';
import { currentRoute, pushRoute, useUi, type View } from '../state/ui-store';
import { KEEP_VIEWS, route, type Route } from './app/routes';
import { bootStatus } from './app/boot';
import { useExternal } from './app/use-store';
import { ModelStatus } from './components/ModelStatus';
import { ThemeToggle } from './components/ThemeToggle';
import { StoragePanel } from './components/StoragePanel';
import { DbBanner } from './components/Banners';
import { Toasts } from './components/Toasts';
import { UpdatePrompt } from './components/UpdatePrompt';
import { ExploreView } from './explore/ExploreView';
import { useExplore } from './explore/explore-store';
import { DataView } from './data/DataView';
import { BackupBanner } from './data/BackupBanner';
import { KeepView } from './memories/KeepViews';
import { useKeep } from './memories/keep-store';

const TABS = [
  { view: 'memories', label: 'Memories' },
  { view: 'graph', label: 'Explore' },
  { view: 'data', label: 'Your data' },
] as const;

/** The page follows an address: the view, and in Explore the recall and the open memory. */
function follow(r: Route): void {
  useUi.setState({ view: r.view });
  if (r.view === 'graph') useExplore.getState().applyRoute(r);
  if (KEEP_VIEWS.includes(r.view)) useKeep.getState().applyRoute(r);
}

/** A tab click is a step in history; it also closes a memory left open in Explore. */
function go(view: View): void {
  const r = route(view);
  pushRoute(r);
  follow(r);
}

// Addresses: the UI state follows the URL on load and on Back / Forward / a followed link
// (popstate and hashchange can both fire for one step; following twice changes nothing).
function useRouteFollowing(): void {
  useEffect(() => {
    follow(currentRoute());
    const onChange = () => follow(currentRoute());
    window.addEventListener('popstate', onChange);
    window.addEventListener('hashchange', onChange);
    return () => {
      window.removeEventListener('popstate', onChange);
      window.removeEventListener('hashchange', onChange);
    };
  }, []);
}

export function App() {
  const boot = useExternal(bootStatus);
  const view = useUi((s) => s.view);
  useRouteFollowing();
  const ready = boot.state === 'ready';
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <div className="brand">
          <img src="favicon.svg" alt="" width={28} height={28} />
          <span className="brand__name">Mnemograph</span>
          <span className="brand__tag">your memories, on this device</span>
        </div>
        <nav className="views" aria-label="Views">
          {TABS.map((t) => (
            <button
              key={t.view}
              type="button"
              className="views__tab"
              aria-current={view === t.view || (t.view === 'memories' && KEEP_VIEWS.includes(view)) ? 'page' : undefined}
              onClick={() => go(t.view)}
              data-testid={`nav-${t.view}`}
            >
              {t.label}
            </button>
          ))}
        </nav>
        <div className="app-header__end">
          <ModelStatus />
          <ThemeToggle />
        </div>
      </header>
      <div className="banners">
        <DbBanner />
        <UpdatePrompt />
        {ready && <BackupBanner />}
      </div>
      <div className="layout">
        <main id="main" className="layout__main" tabIndex={-1}>
          {KEEP_VIEWS.includes(view) ? (
            <KeepView view={view} ready={ready} />
          ) : view === 'graph' ? (
            <ExploreView />
          ) : (
            <DataView />
          )}
        </main>
        <aside className="layout__aside" aria-label="Device and storage">
          {ready && <StoragePanel />}
          <section className="card about">
            <h2 className="card__title">Private by design</h2>
            <p className="field__hint">
              Memories, the search index and the sentence encoder all live in this browser. Nothing is sent anywhere, and it keeps
              working offline.
            </p>
          </section>
        </aside>
      </div>
      <Toasts />
    </div>
  );
}
