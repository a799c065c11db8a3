// Persisted settings read through live queries: a save in another tab (another services
// instance on the same database) reaches this tab's subscribers, validated as the getters read it.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../core/errors';
import { services } from './index';
import { openOtherTab, startServices } from '../testing/services';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('settings as live queries', () => {
  it('a setting saved by another tab reaches this tab: validated as the getters read it', async () => {
    const { dbName } = await startServices();
    const tabB = await openOtherTab(dbName, { crossTab: false });
    const seenConfig: number[] = [];
    const seenDefaults: unknown[] = [];
    const subs = [
      services().liveSimilarityConfig().subscribe({ next: (c) => seenConfig.push(c.recentWindowHours) }),
      services().liveRecallDefaults().subscribe({ next: (d) => seenDefaults.push(d) }),
    ];
    await expect.poll(() => seenConfig).toEqual([2]); // unset: the defaults
    await expect.poll(() => seenDefaults).toEqual([{}]);
    const cfg = await tabB.getSimilarityConfig();
    await tabB.saveSimilarityConfig({ ...cfg, recentWindowHours: 5 });
    await tabB.saveRecallDefaults({ profile: 'DEBUGGING', topK: 3 });
    await expect.poll(() => seenConfig).toEqual([2, 5]);
    await expect.poll(() => seenDefaults).toEqual([{}, { profile: 'DEBUGGING', topK: 3 }]);
    // an invalid stored value reads as the getter reads it: ignored (and logged), so the defaults
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await tabB.setSetting('recallDefaults', { topK: 0 });
    await expect.poll(() => seenDefaults).toEqual([{}, { profile: 'DEBUGGING', topK: 3 }, {}]);
    expect(warn).toHaveBeenCalledWith('[mnemograph]', 'INVALID_OPTION', 'the saved recall defaults are invalid and were ignored:', expect.any(AppError));
    await tabB.resetSimilarityConfig();
    await expect.poll(() => seenConfig).toEqual([2, 5, 2]);
    for (const s of subs) s.unsubscribe();
  });
});
