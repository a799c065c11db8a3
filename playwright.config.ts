import { defineConfig, devices } from '@playwright/test';

// e2e runs against the production build served by `vite preview` (the npm script builds first),
// in Debian's Chromium. Never `npx playwright install`: there is no browser download here.
const CI = !!process.env.CI;
// E2E_PORT lets two checkouts run their suites side by side (default 4173, the npm start port).
const PORT = Number(process.env.E2E_PORT ?? 4173);

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results',
  // Model load (USE-lite on the plain WASM backend) takes several seconds in headless Chromium.
  timeout: 120_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1, // 2-core machine: the encoder alone keeps one core busy
  retries: CI ? 1 : 0,
  forbidOnly: CI,
  reporter: 'list',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    serviceWorkers: 'allow',
    // careful ranking (the judge's worker and its background reading) stays off in every spec but
    // e2e/judge.spec.ts, which clears this: see e2e/README.md and src/ui/app/boot.ts CAREFUL_RANKING_SWITCH
    storageState: { cookies: [], origins: [{ origin: `http://127.0.0.1:${PORT}`, localStorage: [{ name: 'mnemograph.carefulRanking', value: 'off' }] }] },
    ...devices['Desktop Chrome'],
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      // --disable-gpu keeps normal tests on the plain WASM backend (no WebGPU adapter).
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    },
  },
  projects: [{ name: 'chromium' }],
  webServer: {
    command: `npx vite preview --host 127.0.0.1 --port ${PORT} --strictPort`,
    url: `http://127.0.0.1:${PORT}`,
    reuseExistingServer: !CI,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
