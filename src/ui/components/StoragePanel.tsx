import { useCallback, useEffect, useId, useState } from 'react';
import { useObservable } from 'dexie-react-hooks';
import { services, requestPersistence, storageInfo, type StorageInfo } from '../../services';
import { errorMessage, formatBytes } from '../app/format';
import { logError } from '../app/report';

/** Storage usage (navigator.storage.estimate) and the "make persistent" request with its outcome. */
export function StoragePanel() {
  const id = useId();
  const [info, setInfo] = useState<StorageInfo | null>(null);
  const [result, setResult] = useState<string | null>(null);
  const count = useObservable(() => services().liveMemoryCount(), []);
  const refresh = useCallback(() => {
    storageInfo().then(setInfo, (e: unknown) => {
      // the estimate is informative only: say "not reported" and keep the reason in the log
      logError(e);
      setInfo({ supported: false, usage: null, quota: null, persisted: null });
    });
  }, []);
  useEffect(refresh, [refresh, count]);

  async function persist() {
    try {
      const ok = await requestPersistence();
      setResult(
        ok
          ? 'Storage is persistent: the browser will not clear it to free space.'
          : 'The browser declined for now (it decides from how you use the site). Installing the app or bookmarking it usually helps.',
      );
    } catch (e) {
      setResult(errorMessage(e));
    }
    refresh();
  }

  const pct = info?.usage != null && info.quota ? Math.min(100, (info.usage / info.quota) * 100) : null;
  return (
    <section className="card storage" aria-labelledby={`${id}-h`} data-testid="storage-panel">
      <h2 id={`${id}-h`} className="card__title">
        Storage
      </h2>
      {info && !info.supported && <p className="field__hint">This browser does not report storage usage.</p>}
      {info?.supported && (
        <>
          <p className="storage__usage" data-testid="storage-usage">
            {formatBytes(info.usage)} used of {formatBytes(info.quota)}
          </p>
          {pct !== null && <progress max={100} value={pct} aria-label="Storage used" className="storage__bar" />}
          <p className="field__hint">
            {info.persisted ? 'Persistent: kept even when the device is low on space.' : 'Best effort: the browser may clear it under pressure.'}
          </p>
        </>
      )}
      {!info?.persisted && (
        <button type="button" className="btn btn--secondary" onClick={() => void persist()} data-testid="persist-button">
          Make storage persistent
        </button>
      )}
      {result && (
        <p className="note" role="status" data-testid="persist-result">
          {result}
        </p>
      )}
    </section>
  );
}
