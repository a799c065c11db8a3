import { describe, expect, it } from 'vitest';
import { CONSTRAINT_TAG } from '../../core/deep';
import { isRule, withRuleTag } from './rule-tag';

describe('a rule (constraint memory) by its tag', () => {
  it('is the tag deeper search reads as a constraint', () => {
    expect(CONSTRAINT_TAG).toBe('constraint');
    expect(isRule(['work', 'constraint'])).toBe(true);
    expect(isRule(['work', 'constraints'])).toBe(false);
  });

  it('on adds it once at the end; off removes every spelling of it; other tags keep order and spelling', () => {
    expect(withRuleTag('', true)).toBe('constraint');
    expect(withRuleTag('Work, family ', true)).toBe('Work, family, constraint');
    expect(withRuleTag('Work, #Constraint, family', true)).toBe('Work, family, constraint');
    expect(withRuleTag('Work, #Constraint, family,, constraint', false)).toBe('Work, family');
    expect(withRuleTag('work', false)).toBe('work');
  });
});
