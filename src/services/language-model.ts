// The language model on this computer (issue 11): its setting (off by default; base URL, model
// name, optional key, loopback addresses only) and the query transformer recall uses. The key is
// stored under its own settings key, which backups leave out, so it never leaves the device.

import type { Observable } from 'dexie';
import { AppError } from '../core/errors';
import { checkModelEndpoint, type QueryTransformer } from '../core/query';
import { deleteSetting, getSetting, liveSettingQuery, putSetting } from '../db/repo';
import type { MnemographDb } from '../db/db';
import { createModelTransformer, type ModelTransformerOptions } from './model-transformer';
import { SETTING_KEYS } from './settings';

export interface LanguageModelSetting {
  enabled: boolean;
  baseUrl: string;
  model: string;
  /** Whether a key is stored (the key itself is never read back into the page's views). */
  hasKey: boolean;
}

export interface LanguageModelInput {
  enabled: boolean;
  baseUrl: string;
  model: string;
  /** undefined = keep the stored key; '' = remove it. */
  apiKey?: string;
}

export const LANGUAGE_MODEL_OFF: LanguageModelSetting = { enabled: false, baseUrl: 'http://localhost:11434/v1', model: '', hasKey: false };

function settingFrom(raw: unknown, hasKey: boolean): LanguageModelSetting {
  const r = raw as Partial<LanguageModelSetting> | undefined;
  if (!r || typeof r !== 'object') return { ...LANGUAGE_MODEL_OFF, hasKey };
  return {
    enabled: r.enabled === true,
    baseUrl: typeof r.baseUrl === 'string' ? r.baseUrl : LANGUAGE_MODEL_OFF.baseUrl,
    model: typeof r.model === 'string' ? r.model : '',
    hasKey,
  };
}

export function createLanguageModel(db: MnemographDb, opts: ModelTransformerOptions = {}) {
  async function read(): Promise<LanguageModelSetting> {
    const [raw, key] = await Promise.all([getSetting<unknown>(db, SETTING_KEYS.languageModel), getSetting<string>(db, SETTING_KEYS.languageModelKey)]);
    return settingFrom(raw, typeof key === 'string' && key !== '');
  }

  return {
    languageModel: read,
    liveLanguageModel: (): Observable<LanguageModelSetting> =>
      liveSettingQuery(db, SETTING_KEYS.languageModel, (raw) => settingFrom(raw, false)),

    /**
     * Saves the setting. Enabled: the address must be on this computer (localhost or 127.0.0.1; [::1] is
     * refused with a message naming localhost) and a model named, else INVALID_CONFIG saying why; nothing is stored then.
     */
    async saveLanguageModel(input: LanguageModelInput): Promise<LanguageModelSetting> {
      if (!input || typeof input !== 'object') throw new AppError('INVALID_CONFIG', 'The language model setting must be an object.');
      const enabled = input.enabled === true;
      let baseUrl = typeof input.baseUrl === 'string' ? input.baseUrl.trim() : '';
      let model = typeof input.model === 'string' ? input.model.trim() : '';
      if (enabled || baseUrl) {
        // a non-loopback address is refused even when switched off: it is never stored
        const e = checkModelEndpoint({ baseUrl, model: model || (enabled ? '' : 'unset') });
        baseUrl = e.baseUrl;
        if (enabled) model = e.model;
      }
      await putSetting(db, SETTING_KEYS.languageModel, { enabled, baseUrl, model });
      if (input.apiKey !== undefined) {
        if (typeof input.apiKey !== 'string') throw new AppError('INVALID_CONFIG', 'The key must be text.');
        if (input.apiKey.trim()) await putSetting(db, SETTING_KEYS.languageModelKey, input.apiKey.trim());
        else await deleteSetting(db, SETTING_KEYS.languageModelKey);
      }
      return read();
    },

    /** The configured model's transformer, or null when it is off (then HyDE is a no-op and no call is made). */
    async modelTransformer(): Promise<QueryTransformer | null> {
      const [raw, key] = await Promise.all([getSetting<unknown>(db, SETTING_KEYS.languageModel), getSetting<string>(db, SETTING_KEYS.languageModelKey)]);
      const s = settingFrom(raw, false);
      if (!s.enabled || !s.model) return null;
      return createModelTransformer({ baseUrl: s.baseUrl, model: s.model, ...(key ? { apiKey: key } : {}) }, opts);
    },
  };
}

export type LanguageModel = ReturnType<typeof createLanguageModel>;
