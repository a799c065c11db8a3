import { defineConfig } from 'vitest/config';

// Vitest's reporter calls Map.groupBy (Node >= 21) when a test fails; Node 20 lacks it, which
// would hide the failed assertion behind a TypeError. The setup file polyfills it; importing it
// here does the same in the main process, where the reporter runs.
import './vitest.setup';

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
