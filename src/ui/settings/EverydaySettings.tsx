// The everyday half of Settings: theme, the sentence encoder, divergence alerts, the backup
// reminder, the default profile and the first-run guide. Each control saves as it changes and says
// so (or shows its error) right beside itself.
import { useId, useState, type ReactNode } from 'react';
import { PROFILE_NAMES as PROFILE_IDS, PROFILES, type CognitiveProfile } from '../../core/recall/profiles';
import type { ThemeChoice } from '../../state/ui-store';
import { errorMessage } from '../app/format';
import { useRecallDefaults, useThemeChoice } from '../app/use-settings';
import { modelProgress } from '../app/boot';
import { encoderMeta } from '../../embed/encoders';
import { go, openGuide } from '../shell/navigate';
import { useExternal } from '../app/use-store';
import { CarefulRankingSetting } from './CarefulRankingSetting';
import { resetGuide, saveBackupReminder, saveDefaultProfile, saveDivergenceAlerts, useBackupStatus, useDivergenceAlerts } from './use-everyday';

const THEMES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'Same as this device' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

const REMINDERS: { label: string; days: number | null }[] = [
  { label: 'Never', days: null },
  { label: 'Every week', days: 7 },
  { label: 'Every 2 weeks', days: 14 },
  { label: 'Every month', days: 30 },
];

const PROFILE_WORDS: Record<CognitiveProfile, string> = {
  BALANCED: 'Balanced',
  DIVERGENT: 'Divergent (also far-off memories that share a theme)',
  DEBUGGING: 'Debugging',
  CRITICAL: 'Critical',
  SYSTEMATIZER: 'Systematizer (broad, grouped)',
};

type Outcome = { kind: 'saved' } | { kind: 'error'; message: string } | null;

/** Runs a save and reports its outcome beside the field. */
function useSaver(): [Outcome, (fn: () => Promise<void>) => void] {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const run = (fn: () => Promise<void>) => {
    setOutcome(null);
    fn().then(
      () => setOutcome({ kind: 'saved' }),
      (e: unknown) => setOutcome({ kind: 'error', message: errorMessage(e) }),
    );
  };
  return [outcome, run];
}

function FieldOutcome({ id, outcome, testId }: { id: string; outcome: Outcome; testId: string }) {
  if (outcome?.kind === 'error')
    return (
      <p id={id} className="field-error" role="alert" data-testid={`${testId}-error`}>
        {outcome.message}
      </p>
    );
  return (
    <p id={id} className="field-saved" role="status" data-testid={`${testId}-saved`}>
      {outcome?.kind === 'saved' ? 'Saved.' : ''}
    </p>
  );
}

function Row({ label, htmlFor, hint, children }: { label: string; htmlFor?: string; hint?: ReactNode; children: ReactNode }) {
  return (
    <div className="settings-row">
      {htmlFor ? (
        <label className="settings-row__label" htmlFor={htmlFor}>
          {label}
        </label>
      ) : (
        <span className="settings-row__label">{label}</span>
      )}
      <div className="settings-row__control">
        {children}
        {hint && <p className="field__hint settings-row__hint">{hint}</p>}
      </div>
    </div>
  );
}

export function EverydaySettings({ onGuide }: { onGuide?: () => void }) {
  const id = useId();
  const [theme, setTheme] = useThemeChoice();
  const model = useExternal(modelProgress);
  const alerts = useDivergenceAlerts();
  const backup = useBackupStatus();
  const defaults = useRecallDefaults();
  const [alertsOutcome, saveAlerts] = useSaver();
  // what the person just chose, shown until the stored value (a live query) catches up
  const [alertsChosen, setAlertsChosen] = useState<boolean | null>(null);
  const alertsOn = alertsChosen ?? alerts.value ?? true;
  const [reminderOutcome, saveReminder] = useSaver();
  const [profileOutcome, saveProfile] = useSaver();
  const profile: CognitiveProfile = defaults.value?.profile ?? 'BALANCED';

  return (
    <div className="settings-everyday" data-testid="settings-everyday">
      <fieldset className="settings-row settings-theme">
        <legend className="settings-row__label">Theme</legend>
        <div className="settings-row__control settings-choices">
          {THEMES.map((t) => (
            <label key={t.value} className="settings-choice">
              <input type="radio" name={`${id}-theme`} value={t.value} checked={theme === t.value} onChange={() => setTheme(t.value)} data-testid={`settings-theme-${t.value}`} />
              {t.label}
            </label>
          ))}
        </div>
      </fieldset>

      {/* The encoder in use; choosing, downloading and switching happen in the Search model view
          (src/ui/models), one click away. */}
      <Row label="Search model" hint="Understands what your memories mean. It runs in this browser; nothing is sent anywhere.">
        <p className="settings-encoder" data-testid="settings-encoder">
          {(model.encoder ? encoderMeta(model.encoder)?.label ?? model.encoder : 'The default model')} ·{' '}
          {model.phase === 'ready' ? 'ready' : model.phase === 'error' ? 'could not load' : 'loading…'}{' '}
          <button type="button" className="btn btn--secondary" onClick={() => go('models')} data-testid="settings-encoder-change">
            Change search model
          </button>
        </p>
      </Row>

      <CarefulRankingSetting />

      <Row
        label="Divergence alerts"
        htmlFor={`${id}-alerts`}
        hint="A note when a search or a new memory is far from what you worked on in the last hours."
      >
        <label className="settings-switch">
          <input
            id={`${id}-alerts`}
            type="checkbox"
            role="switch"
            data-testid="settings-divergence-alerts"
            checked={alertsOn}
            disabled={alerts.value === undefined}
            aria-describedby={`${id}-alerts-out`}
            onChange={(e) => {
              const on = e.target.checked;
              setAlertsChosen(on);
              saveAlerts(() => saveDivergenceAlerts(on).catch((err: unknown) => {
                setAlertsChosen(null); // not saved: show what is stored
                throw err;
              }));
            }}
          />
          {alertsOn ? 'On' : 'Off'}
        </label>
        <FieldOutcome id={`${id}-alerts-out`} outcome={alertsOutcome} testId="settings-divergence-alerts" />
      </Row>

      <Row label="Backup reminder" htmlFor={`${id}-reminder`} hint="A gentle banner when it is time to download a backup (Your data).">
        <select
          id={`${id}-reminder`}
          data-testid="settings-backup-reminder"
          value={backup.value?.reminderDays == null ? '' : String(backup.value.reminderDays)}
          disabled={!backup.value}
          aria-describedby={`${id}-reminder-out`}
          onChange={(e) => {
            const days = e.target.value === '' ? null : Number(e.target.value);
            saveReminder(() => saveBackupReminder(days));
          }}
        >
          {backup.value?.reminderDays != null && !REMINDERS.some((r) => r.days === backup.value?.reminderDays) && (
            <option value={String(backup.value.reminderDays)}>Every {backup.value.reminderDays} days</option>
          )}
          {REMINDERS.map((r) => (
            <option key={r.label} value={r.days === null ? '' : String(r.days)}>
              {r.label}
            </option>
          ))}
        </select>
        <FieldOutcome id={`${id}-reminder-out`} outcome={reminderOutcome} testId="settings-backup-reminder" />
      </Row>

      <Row label="Default way to recall" htmlFor={`${id}-profile`} hint={PROFILES[profile].behaviour}>
        <select
          id={`${id}-profile`}
          data-testid="settings-default-profile"
          value={profile}
          disabled={!defaults.value}
          aria-describedby={`${id}-profile-out`}
          onChange={(e) => {
            const p = e.target.value as CognitiveProfile;
            saveProfile(() => saveDefaultProfile(p));
          }}
        >
          {PROFILE_IDS.map((p) => (
            <option key={p} value={p}>
              {PROFILE_WORDS[p]}
            </option>
          ))}
        </select>
        <FieldOutcome id={`${id}-profile-out`} outcome={profileOutcome} testId="settings-default-profile" />
      </Row>

      <Row label="First-run guide" hint="Three short steps on the sample collection.">
        <button
          type="button"
          className="btn btn--secondary"
          data-testid="settings-show-guide"
          onClick={() => {
            resetGuide().then(() => {
              onGuide?.();
              openGuide();
            }, () => undefined);
          }}
        >
          Show the guide again
        </button>
      </Row>
    </div>
  );
}
