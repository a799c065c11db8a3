// Persisted settings: the similarity config, the recall defaults and the lateral evaluator's
// state. Each is read through one validating reader (an invalid stored value falls back with a
// warning), so the snapshot, the other tabs' sync and the live queries read it alike.

import { AppError, toAppError } from '../core/errors';
import {
  DEFAULT_SIMILARITY_CONFIG,
  assertValidSimilarityConfig,
  loadSimilarityConfig,
  type SimilarityConfig,
} from '../core/spaces';
import { LateralEvaluator, resolveRecallOptions, type LateralEvaluatorState, type RecallOptionsInput } from '../core/recall';
import type { Observable } from 'dexie';
import type { MnemographDb } from '../db/db';
import { deleteSetting, getSetting, liveSettingQuery, putSetting } from '../db/repo';
import type { EngineClient } from '../bridge/engine-bridge';
import { SESSION_SETTING } from './session';
import type { EngineSync } from './sync';

/** Settings keys the services own. */
export const SETTING_KEYS = {
  similarity: 'similarityConfig',
  recallDefaults: 'recallDefaults',
  evaluator: 'lateralEvaluator',
  session: SESSION_SETTING,
  /** Epoch ms of the last backup or Markdown export (set by the export itself). */
  lastBackupAt: 'lastBackupAt',
  /** Days between backup reminders, 1..365; unset or null = no reminder (the default). */
  backupReminderDays: 'backupReminderDays',
  /** false = divergence alerts off (no banner, no graph marks); unset or true = on (the default). */
  divergenceAlerts: 'divergenceAlerts',
  /** The language model on this computer: { enabled, baseUrl, model } (language-model.ts). */
  languageModel: 'languageModel',
  /** Its optional key, kept apart so backups never carry it (stored only on this device). */
  languageModelKey: 'languageModelKey',
} as const;

/** A stored divergence-alerts switch as used: only an explicit false turns the alerts off. */
export const divergenceAlertsFrom = (raw: unknown): boolean => raw !== false;

const defaultSimilarity = (): SimilarityConfig => structuredClone(DEFAULT_SIMILARITY_CONFIG) as SimilarityConfig;

/** A stored similarity config as used: defaults where unset; an invalid one falls back with a warning. */
export function similarityFrom(raw: unknown): SimilarityConfig {
  if (raw === undefined) return defaultSimilarity();
  return loadSimilarityConfig(raw, (m) => console.warn(`[mnemograph] ${m}`));
}

/** Stored recall defaults as used: explicit ones only ({} = every profile default); invalid ones are ignored with a warning. */
export function recallDefaultsFrom(raw: unknown): RecallOptionsInput {
  if (raw === undefined || raw === null) return {};
  try {
    resolveRecallOptions(raw as RecallOptionsInput);
    return raw as RecallOptionsInput;
  } catch (e) {
    const err = toAppError(e, 'INVALID_OPTION');
    console.warn('[mnemograph]', err.code, 'the saved recall defaults are invalid and were ignored:', err);
    return {};
  }
}

/** A stored evaluator state, or null (none, or corrupt: then a fresh evaluator starts). */
export function evaluatorFrom(raw: unknown): LateralEvaluatorState | null {
  if (raw === undefined || raw === null) return null;
  try {
    return LateralEvaluator.fromJSON(raw).toJSON();
  } catch (e) {
    const err = toAppError(e, 'INVALID_CONFIG');
    console.warn('[mnemograph]', err.code, 'the saved lateral evaluator state was invalid; starting afresh:', err);
    return null;
  }
}

export const readSimilarityConfig = async (db: MnemographDb) => similarityFrom(await getSetting<unknown>(db, SETTING_KEYS.similarity));
export const readRecallDefaults = async (db: MnemographDb) => recallDefaultsFrom(await getSetting<unknown>(db, SETTING_KEYS.recallDefaults));
export const readEvaluator = async (db: MnemographDb) => evaluatorFrom(await getSetting<unknown>(db, SETTING_KEYS.evaluator));

export function createSettings(db: MnemographDb, engine: EngineClient, sync: EngineSync) {
  return {
    /** The saved similarity config (defaults where unset). */
    getSimilarityConfig: (): Promise<SimilarityConfig> => readSimilarityConfig(db),

    /** The similarity config as a live query: follows saves in this tab and every other one. */
    liveSimilarityConfig: (): Observable<SimilarityConfig> => liveSettingQuery(db, SETTING_KEYS.similarity, similarityFrom),

    /** Validates (INVALID_CONFIG with the validator's message), stores, and applies it to the engine. */
    async saveSimilarityConfig(config: SimilarityConfig): Promise<SimilarityConfig> {
      if (!config || typeof config !== 'object') throw new AppError('INVALID_CONFIG', 'The similarity config must be an object.');
      assertValidSimilarityConfig(config);
      const copy = structuredClone(config);
      await putSetting(db, SETTING_KEYS.similarity, copy);
      await sync.index([], () => engine.setSimilarityConfig(copy), { setting: SETTING_KEYS.similarity });
      return copy;
    },

    async resetSimilarityConfig(): Promise<SimilarityConfig> {
      await deleteSetting(db, SETTING_KEYS.similarity);
      const d = defaultSimilarity();
      await sync.index([], () => engine.setSimilarityConfig(d), { setting: SETTING_KEYS.similarity });
      return d;
    },

    /** The saved default recall options (explicit ones only; {} = every profile default). */
    getRecallDefaults: (): Promise<RecallOptionsInput> => readRecallDefaults(db),

    /** The recall defaults as a live query: follows saves in this tab and every other one. */
    liveRecallDefaults: (): Observable<RecallOptionsInput> => liveSettingQuery(db, SETTING_KEYS.recallDefaults, recallDefaultsFrom),

    /** Validates (INVALID_OPTION naming the option), stores, and makes them the engine's defaults. */
    async saveRecallDefaults(input: RecallOptionsInput): Promise<RecallOptionsInput> {
      resolveRecallOptions(input);
      // a point in time is one recall's question: saved as a default it would silently hide everything newer
      if (input.asOf !== undefined && input.asOf !== null)
        throw new AppError('INVALID_OPTION', '"As of" applies to one recall at a time and is not saved as a default.');
      const clean = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) as RecallOptionsInput;
      await putSetting(db, SETTING_KEYS.recallDefaults, clean);
      await sync.index([], () => engine.setRecallDefaults(clean), { setting: SETTING_KEYS.recallDefaults });
      return clean;
    },

    /** Divergence alerts on / off (on unless turned off), live: the divergence store follows it too. */
    liveDivergenceAlerts: (): Observable<boolean> => liveSettingQuery(db, SETTING_KEYS.divergenceAlerts, divergenceAlertsFrom),
    async setDivergenceAlerts(on: boolean): Promise<void> {
      if (typeof on !== 'boolean') throw new AppError('INVALID_OPTION', 'Divergence alerts are either on or off.');
      await putSetting(db, SETTING_KEYS.divergenceAlerts, on);
    },

    /** Any other setting (the UI's own keys, e.g. when the sample was loaded). */
    getSetting: <T>(key: string): Promise<T | undefined> => getSetting<T>(db, key),
    /** Any other setting as a live query (undefined -> null: not set). */
    liveSetting: <T>(key: string): Observable<T | null> => liveSettingQuery(db, key, (raw) => (raw === undefined ? null : (raw as T))),
    setSetting: (key: string, value: unknown): Promise<void> => putSetting(db, key, value),
  };
}
