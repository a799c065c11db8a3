// The browser side of `npm run bench:vectors -- --browser` (vectors-browser.ts): the same
// approximate-index bench as Node (ann-core.ts), run in the page's main thread; memory from
// performance.measureUserAgentSpecificMemory (the page is cross-origin isolated) and
// performance.memory (the JS heap, without array buffers).
import { runAnnBench, type AnnBenchConfig } from './ann-core';

type Cfg = Omit<AnnBenchConfig, 'log' | 'memory' | 'afterRun' | 'extra'>;
declare global {
  interface Window {
    __annBench: (cfg: Cfg) => Promise<unknown>;
    __annLog: string[];
  }
}

const heap = () => (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0;

async function pageBytes(): Promise<number | null> {
  const p = performance as Performance & { measureUserAgentSpecificMemory?: () => Promise<{ bytes: number }> };
  if (typeof p.measureUserAgentSpecificMemory !== 'function' || !crossOriginIsolated) return null;
  return (await p.measureUserAgentSpecificMemory()).bytes;
}

window.__annLog = [];
window.__annBench = async (cfg) => {
  const before = await pageBytes();
  const out = await runAnnBench({
    ...cfg,
    log: (s) => window.__annLog.push(s),
    memory: heap,
    afterRun: async () => {
      const b = await pageBytes();
      return { pageMiB: b === null ? null : +(b / 2 ** 20).toFixed(1), pageBeforeMiB: before === null ? null : +(before / 2 ** 20).toFixed(1) };
    },
  });
  return { ...out, userAgent: navigator.userAgent, crossOriginIsolated };
};
document.body.dataset.ready = '1';
