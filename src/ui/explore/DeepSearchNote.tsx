// Deeper search and "keep looking" for the recall on screen: a plain sentence each (what ran, what
// it added, or why these are the first results), the passes one a line, the figures under "details".
import type { EngineDeepReport, EngineIterativeReport } from '../../protocol/engine';
import { deepSearchFigures, deepSearchWords, iterativeWords } from './deep-note';

export function DeepSearchNote({ deep, iterative, added }: { deep?: EngineDeepReport; iterative?: EngineIterativeReport; added: number }) {
  const words = deepSearchWords(deep, added);
  const it = iterativeWords(iterative);
  if (!words && !it) return null;
  return (
    <div className="xr-deep" data-testid="deep-note">
      {words && deep && (
        <div data-testid="deep-note-search" data-status={deep.status}>
          <p className="xr-deep__line" role="status">
            {words}
          </p>
          <details className="details">
            <summary>details</summary>
            <ul className="xr-deep__figures" data-testid="deep-note-figures">
              {deepSearchFigures(deep).map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
          </details>
        </div>
      )}
      {it && iterative && (
        <div data-testid="deep-note-iterative" data-abstained={it.abstained ? 'true' : undefined}>
          <p className="xr-deep__line">{it.lead}</p>
          {it.lines.length > 0 && (
            <ul className="xr-deep__passes" data-testid="deep-note-passes">
              {it.lines.map((l) => (
                <li key={l}>{l}</li>
              ))}
            </ul>
          )}
          <details className="details">
            <summary>details</summary>
            <ul className="xr-deep__figures">
              {iterative.passes.map((p) => (
                <li key={p.pass}>
                  pass {p.pass} · {p.action} · “{p.query}” · added {p.added} · best grade {p.bestGrade.toFixed(2)}
                </li>
              ))}
              <li>
                stopped: {iterative.stoppedBy} · hard: {String(iterative.hard)}
              </li>
            </ul>
          </details>
        </div>
      )}
    </div>
  );
}
