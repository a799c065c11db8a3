// The everyday settings' live values and savers (divergence alerts, backup reminder, default
// profile, the first-run guide), beside the ones src/ui/app/use-settings.ts already holds.
import { services, type BackupStatus } from '../../services';
import type { CognitiveProfile } from '../../core/recall/profiles';
import { saveRecallDefaults, useLive, type SettingValue } from '../app/use-settings';

/** Settings key: when the first-run guide was dismissed (epoch ms); unset = show it. */
export const GUIDE_SETTING = 'shell.guideDismissedAt';

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
