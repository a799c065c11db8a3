import { formatWhen } from '../app/format';
import type { ImportPreview } from './data-api';
import { FORMAT_LABELS } from './files';

const SHOWN_PROBLEMS = 200;

/** A backup's new rows that are not current memories: " Of the new ones, 2 are earlier versions (history) and 1 is in the trash." */
export function partsOf(parts: ImportPreview['backupParts']): string {
  if (!parts || (parts.earlier === 0 && parts.trashed === 0)) return '';
  const said = [
    parts.earlier ? `${parts.earlier} ${parts.earlier === 1 ? 'is an earlier version' : 'are earlier versions'} (history)` : '',
    parts.trashed ? `${parts.trashed} ${parts.trashed === 1 ? 'is' : 'are'} in the trash` : '',
  ].filter(Boolean);
  return ` Of the new ones, ${said.join(' and ')}.`;
}

/**
 * Memories already here that the backup holds a later change of: a restore keeps the copy here,
 * so the person learns before restoring that those changes stay in the file.
 */
export function changedWords(n: number): string {
  const one = n === 1;
  return `${n.toLocaleString('en')} ${one ? 'memory' : 'memories'} already here ${one ? 'was' : 'were'} changed later in this backup. Restoring keeps ${one ? 'it' : 'them'} as ${one ? 'it is' : 'they are'} here: the backup's newer ${one ? 'version is' : 'versions are'} not brought back.`;
}

/** Memories already here that the backup holds a later version of, the copy here as its history: brought up to date. */
export function updatedWords(n: number): string {
  const one = n === 1;
  return `${n.toLocaleString('en')} ${one ? 'memory' : 'memories'} already here ${one ? 'has' : 'have'} a later version in this backup. Restoring brings ${one ? 'it' : 'them'} up to date; the version here stays in ${one ? 'its' : 'their'} history.`;
}

/** What an import would do: counts, the first few memories, and each problem with where it is. */
export function ImportPreviewPanel({ preview }: { preview: ImportPreview }) {
  const skipped = preview.problems.filter((p) => p.severity === 'skipped').length;
  return (
    <div className="data-preview" data-testid="import-preview">
      <h3 className="data__subtitle">Before anything is saved</h3>
      <dl className="data-preview__counts">
        <div>
          <dt>new</dt>
          <dd data-testid="preview-fresh">{preview.fresh}</dd>
        </div>
        <div>
          <dt>already here</dt>
          <dd data-testid="preview-existing">{preview.existing}</dd>
        </div>
        <div>
          <dt>repeated in the file</dt>
          <dd data-testid="preview-repeated">{preview.repeated}</dd>
        </div>
        {skipped > 0 && (
          <div>
            <dt>could not be read</dt>
            <dd data-testid="preview-unreadable">{skipped}</dd>
          </div>
        )}
      </dl>
      <p className="field__hint" data-testid="preview-found">
        Found {preview.total} {preview.total === 1 ? 'item' : 'items'}, read as {FORMAT_LABELS[preview.format]}.
        {partsOf(preview.backupParts)}
        {preview.vectorsReused === 1 ? ' The search data of 1 memory is reused, so it is ready at once.' : ''}
        {preview.vectorsReused && preview.vectorsReused > 1 ? ` The search data of ${preview.vectorsReused} memories is reused, so they are ready at once.` : ''}
      </p>
      {(preview.backupParts?.updated ?? 0) > 0 && (
        <p className="note" data-testid="preview-updated">
          {updatedWords(preview.backupParts!.updated!)}
        </p>
      )}
      {(preview.backupParts?.changed ?? 0) > 0 && (
        <p className="note" data-testid="preview-changed">
          {changedWords(preview.backupParts!.changed!)}
        </p>
      )}
      {preview.fresh === 0 && preview.existing > 0 && !preview.backupParts?.updated && (
        // in place of the action: a run would add nothing, so none is offered (ImportCard)
        <p className="note" role="status" data-testid="preview-nothing-new">
          {preview.format === 'backup'
            ? 'Every memory in this backup is already here: nothing new to restore.'
            : 'Everything you picked is already here: nothing new to import.'}
        </p>
      )}
      {preview.samples.length > 0 && (
        <ul className="data-preview__samples" aria-label="First memories to import">
          {preview.samples.map((s, i) => (
            <li key={i}>
              {/* plain text: React escapes it, nothing in an imported file becomes markup */}
              <p className="data-preview__text">{s.text.length > 280 ? `${s.text.slice(0, 280)}…` : s.text}</p>
              <span className="field__hint">
                {s.createdAt != null && formatWhen(s.createdAt)}
                {s.tags.map((t) => ` #${t}`).join('')}
              </span>
            </li>
          ))}
        </ul>
      )}
      {preview.problems.length > 0 && (
        // open at once when nothing could be read: the problems are then the whole answer
        <details className="data-preview__problems" data-testid="preview-problems" open={preview.fresh === 0 && preview.existing === 0}>
          <summary>
            {preview.problems.length} {preview.problems.length === 1 ? 'problem' : 'problems'} found (show where)
          </summary>
          <ul>
            {preview.problems.slice(0, SHOWN_PROBLEMS).map((p, i) => (
              <li key={i} data-severity={p.severity}>
                <strong>{p.where}</strong>: {p.message} {p.severity === 'skipped' ? '(skipped)' : '(kept)'}
              </li>
            ))}
          </ul>
          {preview.problems.length > SHOWN_PROBLEMS && <p className="field__hint">and {preview.problems.length - SHOWN_PROBLEMS} more.</p>}
        </details>
      )}
    </div>
  );
}
