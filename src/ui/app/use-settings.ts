// Every persisted setting the UI reads or writes goes through this file. Reads are the services'
// Dexie live queries: a setting saved by another component (or another tab) re-renders whatever
// shows it.
import { useEffect, useState } from 'react';
import type { Observable } from 'dexie';
import { services } from '../../services';
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

const LOADING = { value: undefined, error: null } as const;

/** Follows a live query; a failed read is logged here and shown by the caller where the person can act on it. */
export function useLive<T>(query: () => Observable<T>): SettingValue<T> {
  const [state, setState] = useState<SettingValue<T>>(LOADING);
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

/** Similarity thresholds, weights and the recent window (defaults where unset). */
export function useSimilarityConfig(): SettingValue<SimilarityConfig> {
  return useLive(() => services().liveSimilarityConfig());
}

/** The saved recall defaults ({} where unset). */
export function useRecallDefaults(): SettingValue<RecallOptionsInput> {
  return useLive(() => services().liveRecallDefaults());
}

/** When the sample collection was loaded (epoch ms), or null if it never was. */
export function useSampleLoadedAt(): SettingValue<number | null> {
  return useLive(() => services().liveSetting<number>(SAMPLE_SETTING));
}

/** Validates (INVALID_CONFIG), stores and applies the similarity config; resolves with what was saved. */
export const saveSimilarityConfig = (config: SimilarityConfig): Promise<SimilarityConfig> => services().saveSimilarityConfig(config);

/** Validates (INVALID_OPTION), stores and applies the recall defaults; resolves with what was saved. */
export const saveRecallDefaults = (input: RecallOptionsInput): Promise<RecallOptionsInput> => services().saveRecallDefaults(input);

export const markSampleLoaded = (at: number = Date.now()): Promise<void> => services().setSetting(SAMPLE_SETTING, at);

/** The theme choice (kept in localStorage, not in the database) and its setter. */
export function useThemeChoice(): [ThemeChoice, (t: ThemeChoice) => void] {
  return [useUi((s) => s.theme), useUi((s) => s.setTheme)];
}
