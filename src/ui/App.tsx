import { useEffect } from 'react';
import { currentRoute, useUi } from '../state/ui-store';
import { KEEP_VIEWS } from './app/routes';
import { bootStatus } from './app/boot';
import { useExternal } from './app/use-store';
import { StoragePanel } from './components/StoragePanel';
import { DbBanner } from './components/Banners';
import { Toasts } from './components/Toasts';
import { UpdatePrompt } from './components/UpdatePrompt';
import { ExploreView } from './explore/ExploreView';
import { DataView } from './data/DataView';
import { ModelsView } from './models/ModelsView';
import { BackupBanner } from './data/BackupBanner';
// The shell (src/ui/shell): header, command palette and shortcuts, settings, first-run guide,
// the phone's Memories layout, the shared sample load.
import { AppHeader } from './shell/AppHeader';
import { Overlays } from './shell/Overlays';
import { FirstRunGuide } from './shell/FirstRunGuide';
import { follow } from './shell/navigate';
import './shell/shell.css';
import { KeepView } from './memories/KeepViews';
import { useLeaveGuard } from './components/capture-draft';

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
  useLeaveGuard();
  const ready = boot.state === 'ready';
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <AppHeader />
      <div className="banners">
        <DbBanner />
        <UpdatePrompt />
        {ready && <BackupBanner />}
      </div>
      <div className="layout">
        <main id="main" className="layout__main" tabIndex={-1}>
          {ready && <FirstRunGuide />}
          {KEEP_VIEWS.includes(view) ? (
            <KeepView view={view} ready={ready} />
          ) : view === 'graph' ? (
            <ExploreView />
          ) : view === 'data' ? (
            <DataView />
          ) : (
            <ModelsView />
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
      {ready && <Overlays />}
    </div>
  );
}
