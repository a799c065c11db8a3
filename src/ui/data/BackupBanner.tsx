import { useState } from 'react';
import { useObservable } from 'dexie-react-hooks';
import { useUi } from '../../state/ui-store';
import { dataApi } from './data-api';

const DAY = 86_400_000;

/** App-wide: a backup is due (the person chose a reminder interval). Dismissed for this page only. */
export function BackupBanner({ now = Date.now }: { now?: () => number }) {
  const status = useObservable(() => dataApi().liveBackupStatus(), []);
  const [dismissed, setDismissed] = useState(false);
  const setView = useUi((s) => s.setView);
  if (!status?.due || dismissed) return null;
  const days = status.lastBackupAt == null ? null : Math.max(1, Math.floor((now() - status.lastBackupAt) / DAY));
  return (
    <div className="banner banner--warning" role="status" data-testid="backup-banner">
      <span>
        {days == null ? 'You have not made a backup yet.' : `It has been ${days} ${days === 1 ? 'day' : 'days'} since your last backup.`}
      </span>
      <button type="button" className="btn btn--small btn--primary" onClick={() => setView('data')}>
        Back up now
      </button>
      <button type="button" className="btn btn--small btn--ghost" onClick={() => setDismissed(true)}>
        Not now
      </button>
    </div>
  );
}
