// Makes sure the system Chromium that Playwright drives exists. Playwright's own browser
// download is never used (no internet here except the npm registry and Debian apt).
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const CHROMIUM = '/usr/bin/chromium';

if (existsSync(CHROMIUM)) {
  process.exit(0);
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;

if (isRoot && hasApt) {
  console.log(`ensure-chromium: ${CHROMIUM} is missing; installing Debian's chromium with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', 'chromium']]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (r.status !== 0) {
      console.error(`ensure-chromium: apt-get ${args.join(' ')} failed (exit ${r.status})`);
      process.exit(1);
    }
  }
  if (existsSync(CHROMIUM)) process.exit(0);
  console.error(`ensure-chromium: apt-get finished but ${CHROMIUM} is still missing`);
  process.exit(1);
}

console.error(
  [
    `ensure-chromium: ${CHROMIUM} was not found. The e2e tests drive the system Chromium.`,
    'Install it, then run the tests again:',
    '  Debian / Ubuntu:  sudo apt-get update && sudo apt-get install -y chromium',
    '(Do not run `npx playwright install`; the tests use /usr/bin/chromium.)',
  ].join('\n'),
);
process.exit(1);
