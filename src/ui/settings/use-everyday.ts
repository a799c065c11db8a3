// The everyday settings' live values and savers (divergence alerts, backup reminder, default
// profile, the first-run guide), beside the ones src/ui/app/use-settings.ts already holds.
import { useEffect, useState } from 'react';
import type { Observable } from 'dexie';
import { services, type BackupStatus } from '../../services';
import type { CognitiveProfile } from '../../core/recall/profiles';
import { logError } from '../app/report';
import { saveRecallDefaults, type SettingValue } from '../app/use-settings';

/** Settings key: when the first-run guide was dismissed (epoch ms); unset = show it. */
export const GUIDE_SETTING = 'shell.guideDismissedAt';

function useLive<T>(query: () => Observable<T>): SettingValue<T> {
  const [state, setState] = useState<SettingValue<T>>({ value: undefined, error: null });
  useEffect(() => {
    const sub = query().subscribe({
      next: (value) => setState({ value, error: null }),
      error: (e: unknown) => setState({ value: undefined, error: logError(e, 'DB_UNAVAILABLE') }),
    });
    return () => sub.unsubscribe();
    // each query is a fixed services function: subscribe once per mount
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return state;
}

export const useDivergenceAlerts = (): SettingValue<boolean> => useLive(() => services().liveDivergenceAlerts());
export const saveDivergenceAlerts = (on: boolean): Promise<void> => services().setDivergenceAlerts(on);

export const useBackupStatus = (): SettingValue<BackupStatus> => useLive(() => services().liveBackupStatus());
export const saveBackupReminder = (days: number | null): Promise<void> => services().setBackupReminder(days);

/** When the first-run guide was dismissed, or null (show it). */
export const useGuideDismissedAt = (): SettingValue<number | null> => useLive(() => services().liveSetting<number>(GUIDE_SETTING));
export const dismissGuide = (at: number = Date.now()): Promise<void> => services().setSetting(GUIDE_SETTING, at);
export const resetGuide = (): Promise<void> => services().setSetting(GUIDE_SETTING, null);

/** Saves the default profile, keeping the other saved recall defaults. */
export async function saveDefaultProfile(profile: CognitiveProfile): Promise<void> {
  const current = await services().getRecallDefaults();
  await saveRecallDefaults({ ...current, profile });
}
