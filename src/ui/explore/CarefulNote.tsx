// The answer's line about careful ranking (src/services/judge-refine.ts): checked carefully, or
// still reading the memories (a percentage); the figures under "details".
import type { CarefulNote as Note } from '../../services/judge-refine';
import { carefulNoteWords } from '../settings/careful-words';

export function CarefulNote({ note }: { note?: Note }) {
  if (!note) return null;
  const { line, figures } = carefulNoteWords(note);
  return (
    <div className="xr-deep" data-testid="careful-note" data-applied={note.applied ? 'true' : 'false'}>
      <p className="xr-deep__line">{line}</p>
      {figures.length > 0 && (
        <details className="details">
          <summary>details</summary>
          <ul className="xr-deep__figures">
            {figures.map((l) => (
              <li key={l}>{l}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
