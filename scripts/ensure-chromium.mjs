// Makes sure the system Chromium that Playwright drives exists. Playwright's own browser
// download is never used (no internet here except the npm registry and Debian apt).
// Exit code 0 when Chromium is there (or was just installed), 1 with instructions otherwise.
import { existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const CHROMIUM = '/usr/bin/chromium';

function install() {
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!isRoot || !hasApt) return false;
  console.log(`ensure-chromium: ${CHROMIUM} is missing; installing Debian's chromium with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [['update'], ['install', '-y', 'chromium']]) {
    const r = spawnSync('apt-get', args, { stdio: 'inherit', env });
    if (r.status !== 0) {
      console.error(`ensure-chromium: apt-get ${args.join(' ')} failed (exit ${r.status})`);
      return false;
    }
  }
  if (existsSync(CHROMIUM)) return true;
  console.error(`ensure-chromium: apt-get finished but ${CHROMIUM} is still missing`);
  return false;
}

if (!existsSync(CHROMIUM) && !install()) {
  console.error(
    [
      `ensure-chromium: ${CHROMIUM} was not found. The e2e tests drive the system Chromium.`,
      'Install it, then run the tests again:',
      '  Debian / Ubuntu:  sudo apt-get update && sudo apt-get install -y chromium',
      '(Do not run `npx playwright install`; the tests use /usr/bin/chromium.)',
    ].join('\n'),
  );
  process.exitCode = 1;
}
