import { defineConfig } from 'vitest/config';

// Vitest's reporter calls Map.groupBy (Node >= 21) when a test fails; Node 20 lacks it, which
// would hide the failed assertion behind a TypeError. Polyfill it in the main process.
const MapWithGroupBy = Map as unknown as { groupBy?: unknown };
if (typeof MapWithGroupBy.groupBy !== 'function') {
  MapWithGroupBy.groupBy = function groupBy<K, T>(items: Iterable<T>, key: (item: T, i: number) => K) {
    const out = new Map<K, T[]>();
    let i = 0;
    for (const item of items) {
      const k = key(item, i++);
      const list = out.get(k);
      if (list) list.push(item);
      else out.set(k, [item]);
    }
    return out;
  };
}

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'workers/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    setupFiles: ['./vitest.setup.ts'],
  },
});
