/// <reference types="vite-plugin-pwa/vanillajs" />
import { useEffect, useState } from 'react';
import { registerSW } from 'virtual:pwa-register';

type UpdateSW = (reloadPage?: boolean) => Promise<void>;

/** Service worker registration: offer a new version (never reload by force), note offline readiness. */
export function UpdatePrompt() {
  const [needRefresh, setNeedRefresh] = useState(false);
  const [offlineReady, setOfflineReady] = useState(false);
  const [notStored, setNotStored] = useState(false);
  const [update, setUpdate] = useState<UpdateSW | null>(null);
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    const fn = registerSW({
      onNeedRefresh: () => setNeedRefresh(true),
      onOfflineReady: () => setOfflineReady(true),
      onRegisterError: (e: unknown) => console.warn('Service worker registration failed', e),
      // the install copies the app and its meaning model (about 105 MB) for offline use; when it
      // fails for want of space, say so instead of failing silently
      onRegisteredSW: (_url, reg) => {
        const installing = reg?.installing;
        installing?.addEventListener('statechange', () => {
          if (installing.state === 'redundant') void storageFull().then((full) => full && setNotStored(true));
        });
      },
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
  if (notStored) {
    return (
      <div className="banner banner--warning" role="status" data-testid="not-stored">
        <p>The meaning model couldn't be stored on this device: storage is full. It works while you are online; offline, search works by keywords.</p>
        <button type="button" className="btn btn--ghost btn--small" onClick={() => setNotStored(false)} aria-label="Dismiss">
          ✕
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

/** True when this origin has less room left than the offline copy needs (or the estimate is unavailable and near zero). */
async function storageFull(): Promise<boolean> {
  try {
    const { usage = 0, quota = 0 } = (await navigator.storage?.estimate()) ?? {};
    return quota - usage < OFFLINE_COPY_BYTES;
  } catch {
    return false;
  }
}

/** The service worker's precache: the app, MiniLM (23 MB), onnxruntime's two WASM builds (27 + 14 MB), USE-lite (28 MB) and the rest. */
const OFFLINE_COPY_BYTES = 105 * 1024 * 1024;
