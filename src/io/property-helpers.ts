// Shared checks and generators for the importers' property tests (test-only; no product code
// imports this file). The invariants every importer must hold whatever it is given:
// it returns (never throws), every item passes the core's validation unchanged, no item keeps a
// script link or a date out of range, and every problem is a well-formed report.

import fc from 'fast-check';
import { expect } from 'vitest';
import { validateNewMemory } from '../core/validate';
import type { ImportResult } from './result';
import { isDangerousLink } from './safe-url';
import { inTimeRange } from './text';

export function holdsInvariants(run: () => ImportResult): ImportResult {
  let res: ImportResult | undefined;
  expect(() => {
    res = run();
  }).not.toThrow();
  for (const item of res!.items) {
    expect(validateNewMemory(item.draft)).toEqual(item.draft);
    if (item.draft.source !== undefined) expect(isDangerousLink(item.draft.source)).toBe(false);
    for (const t of [item.draft.createdAt, item.draft.validFrom, item.draft.validTo])
      if (t !== undefined && t !== null) expect(inTimeRange(t)).toBe(true);
  }
  for (const e of res!.errors) {
    expect(typeof e.message).toBe('string');
    expect(e.message.length).toBeGreaterThan(0);
    expect(['skipped', 'note']).toContain(e.severity);
  }
  return res!;
}

export const skipped = (res: ImportResult) => res.errors.filter((e) => e.severity === 'skipped');

/** Text a hostile file may hold: any code points, markup, script links, lone surrogates. */
export const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<svg onload=alert(1)>',
    'javascript:alert(1)',
    ' JaVa\tScRiPt:alert(1)',
    'data:text/html,<b>x</b>',
    'vbscript:msgbox(1)',
    '\ud800',
    '"',
    '""',
    ',',
    '\r\n',
    '---',
    '[[',
    '#',
    '__proto__',
    '',
    '   ',
  ),
);

/** Dates as files write them, readable or not: ISO, epoch s / ms / µs, out of range, garbage. */
export const hostileDate = fc.oneof(
  fc.date({ min: new Date('1000-01-01'), max: new Date('2999-12-31'), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.integer({ min: 0, max: 2_000_000_000 }).map(String),
  fc.constantFrom('99999999999999999999', '-8640000000000001', '+275760-09-13T00:00:00Z', 'NaN', 'Infinity', 'tomorrow', '', '0', '2024-02-30'),
  fc.double().map(String),
);
