// `npm run bench:scale -- --snapshot-ab 3`: the keyword snapshot's A/B in the same page and run
// (issue 13); `--engine-ab 3` the same for the engine snapshot (schema v12: `engineSnapshot`, its
// size per memory from its head). Alternating reloads of the same store: "with" (the engine starts from the stored
// keyword snapshot) and "without" (its rows deleted before the reload, so the engine reads and
// tokenises every memory, as before schema v11). Reports each reload's first keyword answer and
// warm time (ms after navigation) and the medians.
import { loadavg } from 'node:os';
import type { Page } from '@playwright/test';
import type { StartupTimes } from '../../src/diagnostics/scale-page';

/** Raw IndexedDB in the page: clear the snapshot's rows, or say whether its head is stored. */
function snapshotRows(page: Page, mode: 'clear' | 'has', table: string): Promise<boolean> {
  return page.evaluate(
    ([m, t]) =>
      new Promise<boolean>((ok, fail) => {
        const r = indexedDB.open('mnemograph');
        r.onerror = () => fail(r.error);
        r.onsuccess = () => {
          const db = r.result;
          const tx = db.transaction(t, m === 'clear' ? 'readwrite' : 'readonly');
          const store = tx.objectStore(t);
          let has = false;
          if (m === 'clear') store.clear();
          else {
            const g = store.get('head');
            g.onsuccess = () => (has = g.result !== undefined);
          }
          tx.oncomplete = () => {
            db.close();
            ok(has);
          };
          tx.onerror = () => fail(tx.error);
        };
      }),
    [mode, table] as const,
  );
}

/** The stored engine snapshot's bytes (its head's stream sizes), 0 when none. */
function engineBytes(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((ok, fail) => {
        const r = indexedDB.open('mnemograph');
        r.onerror = () => fail(r.error);
        r.onsuccess = () => {
          const g = r.result.transaction('engineSnapshot', 'readonly').objectStore('engineSnapshot').get('head');
          g.onsuccess = () => {
            r.result.close();
            const h = g.result as { vectors?: { bytes: number }; spaces?: { bytes: number } } | undefined;
            ok((h?.vectors?.bytes ?? 0) + (h?.spaces?.bytes ?? 0));
          };
          g.onerror = () => fail(g.error);
        };
      }),
  );
}

export async function snapshotAB(page: Page, reloadUrl: string, rounds: number, log: (s: string) => void, table: 'lexicalSnapshot' | 'engineSnapshot' = 'lexicalSnapshot'): Promise<Record<string, unknown>> {
  const runs: { variant: 'with' | 'without'; firstKeywordMs: number | null; warmMs: number | null; loadAvg1m: number }[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const variant of r % 2 === 0 ? (['without', 'with'] as const) : (['with', 'without'] as const)) {
      if (variant === 'without') await snapshotRows(page, 'clear', table);
      else await pollHas(page);
      await page.goto(reloadUrl);
      const s: StartupTimes = await page.evaluate(() => window.__scaleBench.startup);
      runs.push({ variant, firstKeywordMs: s.firstKeywordMs, warmMs: s.warmMs, loadAvg1m: Math.round(loadavg()[0]! * 10) / 10 });
      log(`${table} A/B round ${r + 1}: ${variant} the snapshot: first keyword answer ${s.firstKeywordMs} ms, warm ${s.warmMs} ms`);
    }
  }
  const med = (v: 'with' | 'without', k: 'firstKeywordMs' | 'warmMs') => {
    const xs = runs.filter((x) => x.variant === v && x[k] !== null).map((x) => x[k]!).sort((a, b) => a - b);
    return xs.length ? xs[Math.floor(xs.length / 2)] : null;
  };
  if (table === 'engineSnapshot') await pollHas(page);
  return {
    runs,
    ...(table === 'engineSnapshot' && { snapshotBytes: await engineBytes(page) }),
    firstKeywordMsWith: med('with', 'firstKeywordMs'),
    firstKeywordMsWithout: med('without', 'firstKeywordMs'),
    warmMsWith: med('with', 'warmMs'),
    warmMsWithout: med('without', 'warmMs'),
  };

  async function pollHas(p: Page): Promise<void> {
    // the engine writes the snapshot in the background after it is warm (after a start without one)
    for (let i = 0; i < 600 && !(await snapshotRows(p, 'has', table)); i++) await p.waitForTimeout(500);
  }
}
