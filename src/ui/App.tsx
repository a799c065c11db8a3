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
          {(['memories', 'graph'] as const).map((v) => (
            <button
              key={v}
              type="button"
              className="views__tab"
              aria-current={view === v ? 'page' : undefined}
              onClick={() => setView(v)}
              data-testid={`nav-${v}`}
            >
              {v === 'memories' ? 'Memories' : 'Explore'}
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
      </div>
      <div className="layout">
        <main id="main" className="layout__main" tabIndex={-1}>
          {view === 'memories' ? (
            <>
              <CaptureForm disabled={!ready} />
              <SearchPanel enabled={ready} />
              {ready && <MemoryList />}
            </>
          ) : (
            <ExploreView />
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
