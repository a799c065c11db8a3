// "A rule to keep in mind": marks a memory as a constraint (issue 11) by adding or removing the
// `constraint` tag in a tags field's text (./rule-tag.ts). Used by the new-memory form and the editor.
import { useId } from 'react';
import { normaliseTags } from '../../core/validate';
import { isRule, RULE_HINT, RULE_LABEL, withRuleTag } from './rule-tag';

export function RuleCheckbox({ tags, onChange, testId }: { tags: string; onChange: (tags: string) => void; testId: string }) {
  const id = useId();
  return (
    <div className="field">
      <label className="rule-check">
        <input type="checkbox" checked={isRule(normaliseTags(tags))} onChange={(e) => onChange(withRuleTag(tags, e.target.checked))} aria-describedby={`${id}-hint`} data-testid={testId} />
        {RULE_LABEL}
      </label>
      <span id={`${id}-hint`} className="field__hint">
        {RULE_HINT}
      </span>
    </div>
  );
}
