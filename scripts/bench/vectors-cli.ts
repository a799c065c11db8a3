// `npm run bench:vectors`: the exact dense scan and its baselines (vectors.ts), or with `--ann` the
// approximate index beside the exact scan (vectors-ann.ts), with `--browser` the same in Chromium
// (vectors-browser.ts). Each file's head lists its flags.
if (process.argv.includes('--browser')) await import('./vectors-browser');
else if (process.argv.includes('--ann')) await import('./vectors-ann');
else await import('./vectors');
export {};
