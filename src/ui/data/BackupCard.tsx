import { useId, useState } from 'react';
import { useObservable } from 'dexie-react-hooks';
import { formatWhen } from '../app/format';
import { dataApi, type ExportedFile } from './data-api';
import { kindsWords, saveBlob } from './files';
import { ActionError, toShown, type ShownError } from './ActionError';

const REMINDERS: { label: string; days: number | null }[] = [
  { label: 'never', days: null },
  { label: 'every week', days: 7 },
  { label: 'every 2 weeks', days: 14 },
  { label: 'every month', days: 30 },
];

/** What a backup holds, in the words of the lists: "4 memories, 1 earlier version and 2 in the trash". */
function savedWords(out: Pick<ExportedFile, 'memories' | 'kinds'>): string {
  return kindsWords(out.kinds ?? { current: out.memories, earlier: 0, trashed: 0 });
}

/** Back up: the JSON backup (optionally with vectors, optionally encrypted), the Markdown zip, the reminder. */
export function BackupCard() {
  const id = useId();
  const status = useObservable(() => dataApi().liveBackupStatus(), []);
  const [vectors, setVectors] = useState(false);
  const [encrypt, setEncrypt] = useState(false);
  const [pass, setPass] = useState('');
  const [pass2, setPass2] = useState('');
  const [busy, setBusy] = useState<'json' | 'md' | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [reminderError, setReminderError] = useState<ShownError | null>(null);

  const mismatch = encrypt && pass2 !== '' && pass !== pass2;
  const passReady = !encrypt || (pass.length > 0 && pass === pass2);

  async function run(kind: 'json' | 'md') {
    setBusy(kind);
    setError(null);
    setDone(null);
    try {
      const out = kind === 'json' ? await dataApi().exportBackup({ vectors, ...(encrypt ? { passphrase: pass } : {}) }) : await dataApi().exportMarkdown();
      saveBlob(out.blob, out.fileName);
      setDone(`Saved ${out.fileName} with ${savedWords(out)}.`);
      // the passphrase is not left typed in a page anyone at this computer could use; the next backup asks again
      if (kind === 'json' && encrypt) {
        setPass('');
        setPass2('');
      }
    } catch (e) {
      setError(toShown(e));
    } finally {
      setBusy(null);
    }
  }

  async function remind(value: string) {
    setReminderError(null);
    try {
      await dataApi().setBackupReminder(value === '' ? null : Number(value));
    } catch (e) {
      setReminderError(toShown(e));
    }
  }

  return (
    <section className="card data-card" aria-labelledby={`${id}-h`} data-testid="data-backup">
      <h2 id={`${id}-h`} className="card__title">
        Back up
      </h2>
      <p className="field__hint">
        Your memories live only in this browser, which may clear its storage when space runs low. A backup is a file you keep.
        {status && <> {status.lastBackupAt ? `Last backup: ${formatWhen(status.lastBackupAt)}.` : 'No backup yet.'}</>}
      </p>
      <label className="data__check">
        <input type="checkbox" checked={vectors} onChange={(e) => setVectors(e.target.checked)} />
        include search data (bigger file, faster restore)
      </label>
      <label className="data__check">
        <input type="checkbox" checked={encrypt} onChange={(e) => setEncrypt(e.target.checked)} />
        protect the backup with a passphrase
      </label>
      {encrypt && (
        <div className="data__pass">
          <label className="field">
            <span className="field__label">Passphrase</span>
            <input type="password" autoComplete="new-password" value={pass} onChange={(e) => setPass(e.target.value)} />
          </label>
          <label className="field">
            <span className="field__label">Passphrase again</span>
            <input type="password" autoComplete="new-password" value={pass2} onChange={(e) => setPass2(e.target.value)} aria-invalid={mismatch || undefined} />
          </label>
          {mismatch && (
            <p className="data__warn" role="status">
              The two passphrases are not the same.
            </p>
          )}
          <p className="data__warn">If you lose the passphrase, nobody can open this backup: it cannot be recovered or reset.</p>
        </div>
      )}
      <div className="actions">
        <button
          type="button"
          className="btn btn--primary"
          disabled={busy !== null || !passReady}
          onClick={() => void run('json')}
          aria-describedby={!passReady && !mismatch ? `${id}-needs` : undefined}
        >
          {busy === 'json' ? 'Preparing backup…' : 'Download a backup'}
        </button>
        <button type="button" className="btn btn--secondary" disabled={busy !== null} onClick={() => void run('md')}>
          {busy === 'md' ? 'Preparing notes…' : 'Download as Markdown (zip)'}
        </button>
      </div>
      {!passReady && !mismatch && (
        // a disabled button says why: no dead end (a mismatch says so beside the fields)
        <p id={`${id}-needs`} className="field__hint" data-testid="backup-needs-pass">
          Type a passphrase twice to download a protected backup, or untick the box.
        </p>
      )}
      <ActionError error={error} testId="backup-error" />
      {done && (
        <p className="data__ok" role="status" data-testid="backup-done">
          {done}
        </p>
      )}
      <label className="field data__remind">
        <span className="field__label">Remind me to back up</span>
        <select value={status?.reminderDays == null ? '' : String(status.reminderDays)} onChange={(e) => void remind(e.target.value)} disabled={!status}>
          {status?.reminderDays != null && !REMINDERS.some((r) => r.days === status.reminderDays) && (
            // set elsewhere (another tab, a restored backup): shown as it is
            <option value={String(status.reminderDays)}>every {status.reminderDays} days</option>
          )}
          {REMINDERS.map((r) => (
            <option key={r.label} value={r.days == null ? '' : String(r.days)}>
              {r.label}
            </option>
          ))}
        </select>
      </label>
      <ActionError error={reminderError} testId="reminder-error" />
    </section>
  );
}
