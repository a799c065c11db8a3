// How well a result matches, for a person: a small bar and words ("strong match"); the exact
// figures are one click away in the caller's "details".
import type { MatchWords } from '../app/format';

export function MatchBar({ m }: { m: MatchWords }) {
  return (
    <span className={`match match--${m.level}`} data-testid="match-level" data-level={m.level}>
      <span className="match__bar" aria-hidden="true">
        <span className="match__fill" style={{ width: `${Math.round(Math.max(0.06, m.fill) * 100)}%` }} />
      </span>
      <span className="match__words">{m.words}</span>
    </span>
  );
}
