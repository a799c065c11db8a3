// The model manager's services (issue 8): the encoders on offer (bundled, hub, the person's own
// folders) with what the UI shows about each (size, licence, dimension, prefixes, whether it can
// run offline here), the opt-in hub download, a model added from a picked folder, and removing
// a downloaded one. The files live in Cache Storage (src/embed/model-store.ts); the folders'
// metadata in the settings (`customEncoders`).

import { AppError } from '../core/errors';
import { getSetting, putSetting } from '../db/repo';
import { CUSTOM_ENCODERS_SETTING } from '../db/schema';
import { BUNDLED_ENCODERS, HUB_BASE_URL, HUB_ENCODERS, downloadable, type EncoderEntry } from '../embed/catalogue';
import { downloadModel, type DownloadOutcome, type DownloadProgress } from '../embed/model-download';
import { importFolderModel, type PickedFile } from '../embed/model-folder';
import { isModelAvailable, removeModelFiles, type ModelCacheStorage } from '../embed/model-store';
import type { ServiceContext } from './context';

export interface ModelFilesDeps {
  /** Cache Storage (the browser's `caches`); null where there is none (no hub or folder models then). */
  storage: ModelCacheStorage | null;
  /** Absolute URL of the app's models folder (modelsBaseUrl(location.origin, BASE_URL)). */
  modelsBase: string;
  /** The hub (default HUB_BASE_URL); tests pass a loopback server. */
  hubBase?: string;
  fetch?: typeof fetch;
}

export interface EncoderChoice {
  entry: EncoderEntry;
  /** Bundled, or every file kept here: it runs offline. */
  available: boolean;
  /** A hub model that may be downloaded (pinned checksums) and is not kept yet. */
  canDownload: boolean;
  /** The encoder search uses now. */
  active: boolean;
}

function readCustom(raw: unknown): EncoderEntry[] {
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (e): e is EncoderEntry =>
      !!e && typeof e === 'object' && typeof (e as EncoderEntry).id === 'string' && (e as EncoderEntry).source === 'folder' && Number.isInteger((e as EncoderEntry).dim),
  );
}

const noStorage = () => new AppError('MODEL_DOWNLOAD_FAILED', 'This browser cannot keep model files here (no Cache Storage: is the page served over HTTPS?).');

/**
 * The e2e hook: hub models a test adds to the catalogue before the page loads
 * (`globalThis.__MNEMOGRAPH_TEST_HUB_MODELS__`, set by e2e/models.spec.ts with an init script), so a
 * download can be run against the test's own files (served in the hub's layout, the hub's
 * origin routed to a loopback server). Only entries that could be real catalogue entries pass:
 * source 'hub', a pinned commit and a SHA-256 for every file; they download from HUB_BASE_URL
 * like any other, under the same CSP. Nothing in the app sets it.
 */
function testHubModels(): EncoderEntry[] {
  const raw = (globalThis as { __MNEMOGRAPH_TEST_HUB_MODELS__?: unknown }).__MNEMOGRAPH_TEST_HUB_MODELS__;
  return Array.isArray(raw) ? raw.filter((e): e is EncoderEntry => !!e && typeof e === 'object' && downloadable(e as EncoderEntry) && Number.isInteger((e as EncoderEntry).dim)) : [];
}

const catalogue = (custom: EncoderEntry[]): EncoderEntry[] => [...BUNDLED_ENCODERS, ...HUB_ENCODERS, ...testHubModels(), ...custom];

/** The entry of an encoder id: bundled, hub, or one of the person's folders (setting `customEncoders`). */
export async function findEncoderEntry(db: ServiceContext['db'], id: string): Promise<EncoderEntry | undefined> {
  return catalogue(readCustom(await getSetting(db, CUSTOM_ENCODERS_SETTING))).find((e) => e.id === id);
}

export function createModels(ctx: ServiceContext, files: ModelFilesDeps, activeId: () => string) {
  const { db } = ctx;
  const customEncoders = async (): Promise<EncoderEntry[]> => readCustom(await getSetting(db, CUSTOM_ENCODERS_SETTING));

  const findEntry = (id: string) => findEncoderEntry(db, id);

  return {
    findEntry,

    /** Every encoder on offer, bundled first, with what can be done with it here. */
    async listEncoders(): Promise<EncoderChoice[]> {
      const all = catalogue(await customEncoders());
      const active = activeId();
      return Promise.all(
        all.map(async (entry) => {
          const available = await isModelAvailable(files.storage, files.modelsBase, entry).catch(() => false);
          return { entry, available, canDownload: !available && downloadable(entry) && !!files.storage, active: entry.id === active };
        }),
      );
    },

    /**
     * Downloads a hub model (only when asked: the one fetch outside the app's origin), checking
     * every file's SHA-256, keeping each for offline use. Rejects MODEL_DOWNLOAD_FAILED,
     * MODEL_CHECKSUM or ABORTED; files already kept stay (a later try resumes).
     */
    async downloadEncoder(id: string, opts: { signal?: AbortSignal; onProgress?: (p: DownloadProgress) => void } = {}): Promise<DownloadOutcome> {
      const entry = await findEntry(id);
      if (!entry || entry.source !== 'hub') throw new AppError('INVALID_OPTION', `There is no hub model "${id}" to download.`);
      if (!files.storage) throw noStorage();
      return downloadModel(entry, {
        hubBase: files.hubBase ?? HUB_BASE_URL,
        modelsBase: files.modelsBase,
        storage: files.storage,
        fetch: files.fetch,
        signal: opts.signal,
        onProgress: opts.onProgress,
      });
    },

    /** Adds a model from a picked folder (MODEL_FOLDER_INVALID says what is missing); returns its entry. */
    async addEncoderFromFolder(folderName: string, picked: PickedFile[]): Promise<EncoderEntry> {
      if (!files.storage) throw noStorage();
      const entry = await importFolderModel(folderName, picked, { storage: files.storage, modelsBase: files.modelsBase });
      const others = (await customEncoders()).filter((e) => e.id !== entry.id);
      await putSetting(db, CUSTOM_ENCODERS_SETTING, [...others, entry]);
      return entry;
    },

    /** Deletes a downloaded or added model's files (not the one in use). */
    async removeEncoder(id: string): Promise<void> {
      if (id === activeId()) throw new AppError('INVALID_OPTION', 'This model is in use. Switch to another one first.');
      const entry = await findEntry(id);
      if (!entry || entry.source === 'bundled') return;
      if (files.storage) await removeModelFiles(files.storage, files.modelsBase, entry);
      if (entry.source === 'folder') await putSetting(db, CUSTOM_ENCODERS_SETTING, (await customEncoders()).filter((e) => e.id !== id));
    },
  };
}
