// Constraint memories (issue 11, seed 003 D: "rules such as never book meetings on Fridays", which
// deeper search always surfaces once its reader finds them relevant) are memories tagged
// `constraint` (CONSTRAINT_TAG, src/core/deep/merge.ts; no schema change). A person marks one with
// a checkbox ("A rule to keep in mind") that adds or removes that tag in the tags field, so the
// tags stay the one place it is stored and a rule is edited like any tag. Pure: tested in Node.
import { CONSTRAINT_TAG } from '../../core/deep';
import { normaliseTags } from '../../core/validate';

/** The memory's tags mark it as a rule. */
export function isRule(tags: readonly string[]): boolean {
  return tags.includes(CONSTRAINT_TAG);
}

/** The tags field's text with the rule tag added (at the end) or removed; other tags keep their order and spelling. */
export function withRuleTag(tagsText: string, on: boolean): string {
  const parts = tagsText.split(',').map((t) => t.trim()).filter((t) => t !== '');
  const kept = parts.filter((t) => normaliseTags(t)[0] !== CONSTRAINT_TAG);
  return (on ? [...kept, CONSTRAINT_TAG] : kept).join(', ');
}

export const RULE_LABEL = 'A rule to keep in mind';
export const RULE_HINT = 'For example "never book meetings on Fridays". When deeper search finds a rule relevant to a recall, it always shows it.';
