// Browser storage quota and persistence (navigator.storage), where the browser offers it.

import { logError } from './context';
import type { StorageInfo } from './types';

interface StorageManagerLike {
  estimate?: () => Promise<{ usage?: number; quota?: number }>;
  persisted?: () => Promise<boolean>;
  persist?: () => Promise<boolean>;
}

function manager(): StorageManagerLike | undefined {
  const nav = (globalThis as { navigator?: { storage?: StorageManagerLike } }).navigator;
  return nav?.storage;
}

/** The browser would not say whether storage is persistent: shown as unknown (null), logged. */
function unknownPersistence(e: unknown): null {
  logError(e, 'navigator.storage.persisted() failed');
  return null;
}

export async function storageInfo(sm: StorageManagerLike | undefined = manager()): Promise<StorageInfo> {
  if (!sm?.estimate) return { supported: false, usage: null, quota: null, persisted: null };
  const [est, persisted] = await Promise.all([sm.estimate(), sm.persisted ? sm.persisted().catch(unknownPersistence) : Promise.resolve(null)]);
  return { supported: true, usage: est.usage ?? null, quota: est.quota ?? null, persisted };
}

/** Asks the browser not to evict our data under storage pressure. Resolves with the outcome. */
export async function requestPersistence(sm: StorageManagerLike | undefined = manager()): Promise<boolean> {
  if (!sm?.persist) return false;
  if (sm.persisted && (await sm.persisted())) return true;
  return sm.persist();
}
