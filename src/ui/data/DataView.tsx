import { bootStatus } from '../app/boot';
import { useExternal } from '../app/use-store';
import { BackupCard } from './BackupCard';
import { ImportCard } from './ImportCard';
import './data.css';

/** "Your data": back up, bring memories in, the backup reminder. */
export function DataView() {
  const boot = useExternal(bootStatus);
  if (boot.state !== 'ready') {
    return (
      <p className="field__hint" data-testid="data-waiting">
        {boot.state === 'starting' ? 'Opening your memories…' : 'Your memories could not be opened, so nothing can be backed up or imported.'}
      </p>
    );
  }
  return (
    <div className="data-view" data-testid="data-view">
      <BackupCard />
      <ImportCard />
    </div>
  );
}
