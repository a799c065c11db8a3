import { useUi } from '../state/ui-store';
import { bootStatus } from './app/boot';
import { useExternal } from './app/use-store';
import { ModelStatus } from './components/ModelStatus';
import { ThemeToggle } from './components/ThemeToggle';
import { CaptureForm } from './components/CaptureForm';
import { SearchPanel } from './components/SearchPanel';
import { MemoryList } from './components/MemoryList';
import { StoragePanel } from './components/StoragePanel';
import { DbBanner } from './components/Banners';
import { Toasts } from './components/Toasts';
import { UpdatePrompt } from './components/UpdatePrompt';
import { ExploreView } from './explore/ExploreView';
import { DataView } from './data/DataView';
import { BackupBanner } from './data/BackupBanner';

const TABS = [
  { view: 'memories', label: 'Memories' },
  { view: 'graph', label: 'Explore' },
  { view: 'data', label: 'Your data' },
] as const;

export function App() {
  const boot = useExternal(bootStatus);
  const view = useUi((s) => s.view);
  const setView = useUi((s) => s.setView);
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
              aria-current={view === t.view ? 'page' : undefined}
              onClick={() => setView(t.view)}
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
          {view === 'memories' ? (
            <>
              <CaptureForm disabled={!ready} />
              <SearchPanel enabled={ready} />
              {ready && <MemoryList />}
            </>
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
