import { dbStatus } from '../../services';
import { useExternal } from '../app/use-store';
import { bootStatus } from '../app/boot';
import { ERROR_CATALOGUE } from '../../core/errors';

/** Database state that stops work: another tab upgraded the schema, or an old tab blocks ours. */
export function DbBanner() {
  const db = useExternal(dbStatus);
  const boot = useExternal(bootStatus);
  const outdated = db.state === 'outdated' || (boot.state === 'failed' && boot.error.code === 'SCHEMA_OUTDATED');
  if (outdated) {
    return (
      <div className="banner banner--blocking" role="alert" data-testid="schema-outdated-banner">
        <p>{db.error?.message ?? ERROR_CATALOGUE.SCHEMA_OUTDATED}</p>
        <button type="button" className="btn btn--primary" onClick={() => location.reload()}>
          Reload
        </button>
      </div>
    );
  }
  if (db.state === 'blocked') {
    return (
      <div className="banner banner--warning" role="alert" data-testid="db-blocked-banner">
        <p>{db.error?.message ?? ERROR_CATALOGUE.DB_BLOCKED}</p>
        <button type="button" className="btn btn--secondary" onClick={() => location.reload()}>
          Reload
        </button>
      </div>
    );
  }
  if (boot.state === 'failed') {
    return (
      <div className="banner banner--error" role="alert" data-testid="boot-error-banner" data-code={boot.error.code}>
        <p>{boot.error.message}</p>
        <button type="button" className="btn btn--secondary" onClick={() => location.reload()}>
          Reload
        </button>
      </div>
    );
  }
  return null;
}
