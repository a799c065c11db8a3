// Every persisted setting the UI reads or writes goes through this file, so the way settings
// reach the UI changes in one place. Reads are Dexie live queries over the services' getters:
// a setting saved by another component (or another tab) re-renders whatever shows it.
import { useLiveQuery } from 'dexie-react-hooks';
import {
  getRecallDefaults,
  getSetting,
  getSimilarityConfig,
  saveRecallDefaults as saveRecallDefaultsService,
  saveSimilarityConfig as saveSimilarityConfigService,
  setSetting,
} from '../../services';
import type { AppError } from '../../core/errors';
import type { RecallOptionsInput } from '../../core/recall';
import type { SimilarityConfig } from '../../core/spaces';
import { useUi, type ThemeChoice } from '../../state/ui-store';
import { logError } from './report';

/** A setting as the UI sees it: `value` is undefined while it loads and after a failed read. */
export interface SettingValue<T> {
  value: T | undefined;
  error: AppError | null;
}

/** Settings key that records when the sample collection was loaded (its card then steps aside). */
export const SAMPLE_SETTING = 'explore.sampleLoadedAt';

type Outcome<T> = { value: T; error: null } | { value: undefined; error: AppError };

function useSetting<T>(read: () => Promise<T>): SettingValue<T> {
  const out = useLiveQuery(async (): Promise<Outcome<T>> => {
    try {
      return { value: await read(), error: null };
    } catch (e) {
      // shown by the caller where the person can act on it (the settings dialog); logged here
      return { value: undefined, error: logError(e, 'DB_UNAVAILABLE') };
    }
  }, []);
  return out ?? { value: undefined, error: null };
}

/** Similarity thresholds, weights and the recent window (defaults where unset). */
export function useSimilarityConfig(): SettingValue<SimilarityConfig> {
  return useSetting(getSimilarityConfig);
}

/** The saved recall defaults ({} where unset). */
export function useRecallDefaults(): SettingValue<RecallOptionsInput> {
  return useSetting(getRecallDefaults);
}

/** When the sample collection was loaded (epoch ms), or null if it never was. */
export function useSampleLoadedAt(): SettingValue<number | null> {
  return useSetting(async () => (await getSetting<number>(SAMPLE_SETTING)) ?? null);
}

/** Validates (INVALID_CONFIG), stores and applies the similarity config; resolves with what was saved. */
export const saveSimilarityConfig = (config: SimilarityConfig): Promise<SimilarityConfig> => saveSimilarityConfigService(config);

/** Validates (INVALID_OPTION), stores and applies the recall defaults; resolves with what was saved. */
export const saveRecallDefaults = (input: RecallOptionsInput): Promise<RecallOptionsInput> => saveRecallDefaultsService(input);

export const markSampleLoaded = (at: number = Date.now()): Promise<void> => setSetting(SAMPLE_SETTING, at);

/** The theme choice (kept in localStorage, not in the database) and its setter. */
export function useThemeChoice(): [ThemeChoice, (t: ThemeChoice) => void] {
  return [useUi((s) => s.theme), useUi((s) => s.setTheme)];
}
