// Database names for tests: fake-indexeddb keeps every database for the whole run, so each test
// opens one no other test has used.
let n = 0;

/** A database name no other test has used in this run. */
export const freshDbName = (): string => `test-${Date.now()}-${n++}`;
