/// <reference types="vite-plugin-pwa/vanillajs" />
import { useEffect, useState } from 'react';
import { registerSW } from 'virtual:pwa-register';

type UpdateSW = (reloadPage?: boolean) => Promise<void>;

/** Service worker registration: offer a new version (never reload by force), note offline readiness. */
export function UpdatePrompt() {
  const [needRefresh, setNeedRefresh] = useState(false);
  const [offlineReady, setOfflineReady] = useState(false);
  const [update, setUpdate] = useState<UpdateSW | null>(null);
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    const fn = registerSW({
      onNeedRefresh: () => setNeedRefresh(true),
      onOfflineReady: () => setOfflineReady(true),
      onRegisterError: (e: unknown) => console.warn('Service worker registration failed', e),
    });
    setUpdate(() => fn);
  }, []);
  if (needRefresh) {
    return (
      <div className="banner banner--info" role="status" data-testid="update-prompt">
        <p>A new version is available.</p>
        <button type="button" className="btn btn--primary" onClick={() => void update?.(true)}>
          Reload
        </button>
        <button type="button" className="btn btn--ghost" onClick={() => setNeedRefresh(false)}>
          Later
        </button>
      </div>
    );
  }
  if (offlineReady) {
    return (
      <div className="banner banner--success" role="status" data-testid="offline-ready">
        <p>Ready to work offline.</p>
        <button type="button" className="btn btn--ghost btn--small" onClick={() => setOfflineReady(false)} aria-label="Dismiss">
          ✕
        </button>
      </div>
    );
  }
  return null;
}
