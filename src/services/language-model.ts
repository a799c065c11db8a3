// The language model on this computer (issue 11): its setting (off by default; base URL, model
// name, optional key, loopback addresses only), the query transformer recall uses, and deep
// search's model reader when the person let the model read deeper searches (`deepReader`, off by
// default; docs/ARCHITECTURE.md, "Deep search with the language model"). The key is stored under
// its own settings key, which backups leave out, so it never leaves the device.

import type { Observable } from 'dexie';
import { AppError, isAborted, toAppError } from '../core/errors';
import { checkModelEndpoint, type QueryTransformer } from '../core/query';
import { deleteSetting, getSetting, liveSettingQuery, putSetting } from '../db/repo';
import type { MnemographDb } from '../db/db';
import type { EngineModelSource } from '../protocol/engine';
import { logError } from './context';
import { createModelReader } from './model-reader';
import { createModelTransformer, type ModelTransformerOptions } from './model-transformer';
import { SETTING_KEYS } from './settings';

export interface LanguageModelSetting {
  enabled: boolean;
  baseUrl: string;
  model: string;
  /** Whether a key is stored (the key itself is never read back into the page's views). */
  hasKey: boolean;
  /** The person let the model read deeper searches (deep search's reader; only while `enabled`). */
  deepReader: boolean;
}

export interface LanguageModelInput {
  enabled: boolean;
  baseUrl: string;
  model: string;
  /** undefined = keep the stored key; '' = remove it. */
  apiKey?: string;
  /** Let the model read deeper searches (default false; kept false while the model is off). */
  deepReader?: boolean;
}

export const LANGUAGE_MODEL_OFF: LanguageModelSetting = { enabled: false, baseUrl: 'http://localhost:11434/v1', model: '', hasKey: false, deepReader: false };

/** Extra time the model reader's own call gets past deep search's timeout, so the engine's bound (which returns the primary results, marked) fires first; the call is then abandoned. */
const DEEP_CALL_SLACK_MS = 2_000;

function settingFrom(raw: unknown, hasKey: boolean): LanguageModelSetting {
  const r = raw as Partial<LanguageModelSetting> | undefined;
  if (!r || typeof r !== 'object') return { ...LANGUAGE_MODEL_OFF, hasKey };
  return {
    enabled: r.enabled === true,
    baseUrl: typeof r.baseUrl === 'string' ? r.baseUrl : LANGUAGE_MODEL_OFF.baseUrl,
    model: typeof r.model === 'string' ? r.model : '',
    hasKey,
    deepReader: r.enabled === true && r.deepReader === true,
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
      if (input.deepReader !== undefined && typeof input.deepReader !== 'boolean')
        throw new AppError('INVALID_CONFIG', 'Whether the language model reads deeper searches must be true or false.');
      const enabled = input.enabled === true;
      const deepReader = enabled && input.deepReader === true;
      let baseUrl = typeof input.baseUrl === 'string' ? input.baseUrl.trim() : '';
      let model = typeof input.model === 'string' ? input.model.trim() : '';
      if (enabled || baseUrl) {
        // a non-loopback address is refused even when switched off: it is never stored
        const e = checkModelEndpoint({ baseUrl, model: model || (enabled ? '' : 'unset') });
        baseUrl = e.baseUrl;
        if (enabled) model = e.model;
      }
      await putSetting(db, SETTING_KEYS.languageModel, { enabled, baseUrl, model, ...(deepReader ? { deepReader } : {}) });
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

    /**
     * Deep search's model reader for one recall (workers/engine-deep.ts), when a model is
     * configured and the person let it read deeper searches; else undefined (no call, today's
     * reader). The engine calls it only on escalation, with the pool; it answers the model's
     * parsed scores, or null after logging why in plain words (429, unreachable, unreadable, too
     * slow) so the engine reads as it would without the model. Its own call gives up
     * DEEP_CALL_SLACK_MS after deep search's `timeoutMs` (the engine's bound comes first) or when
     * the recall is aborted.
     */
    async deepModelReader(query: string, timeoutMs: number, signal?: AbortSignal): Promise<EngineModelSource | undefined> {
      const [raw, key] = await Promise.all([getSetting<unknown>(db, SETTING_KEYS.languageModel), getSetting<string>(db, SETTING_KEYS.languageModelKey)]);
      const s = settingFrom(raw, false);
      if (!s.enabled || !s.model || !s.deepReader) return undefined;
      const reader = createModelReader({ baseUrl: s.baseUrl, model: s.model, ...(key ? { apiKey: key } : {}) }, { ...opts, timeoutMs: timeoutMs + DEEP_CALL_SLACK_MS });
      return async (pool) => {
        const t0 = performance.now();
        try {
          const scores = await reader.read({ text: query, features: {} }, pool.map((c) => ({ ...c, createdAt: 0 })), { signal });
          return { scores, ms: Math.round(performance.now() - t0) };
        } catch (e) {
          const err = toAppError(e);
          // past deep search's own limit the engine has already shown the first results: say so, not the call's longer limit
          if (err.code === 'TIMEOUT')
            logError(new AppError('TIMEOUT', `The language model on this computer took longer than deeper search's time limit (${Math.max(1, Math.round(timeoutMs / 1000))} s); your first results were shown.`));
          else if (!isAborted(e) && !signal?.aborted) logError(err, 'deeper search read without the language model this time');
          return null;
        }
      };
    },
  };
}

export type LanguageModel = ReturnType<typeof createLanguageModel>;
