import { useEffect, useId, useRef, useState } from 'react';
import { isAborted } from '../../core/errors';
import { dataApi, type CsvMappingInput, type ImportFile, type ImportFormat, type ImportPreview, type ImportRequest } from './data-api';
import { FORMAT_LABELS, kindsWords, outcomeWords, readPicked } from './files';
import { ActionError, toShown, type ShownError } from './ActionError';
import { ImportPreviewPanel } from './ImportPreviewPanel';
import { CsvMappingFields, TextModeField } from './ImportOptions';

type Phase = 'idle' | 'reading' | 'previewing' | 'ready' | 'importing' | 'done';

interface Options {
  format?: ImportFormat;
  csv?: CsvMappingInput;
  textMode: 'line' | 'paragraph';
  quarantine: boolean;
  passphrase?: string;
}

/** The action's words: "Import 120 memories"; a backup "Restore 3 memories and 1 earlier version" (its rows as the lists count them). */
function importLabel(p: ImportPreview): string {
  if (p.format !== 'backup') return `Import ${p.fresh} ${p.fresh === 1 ? 'memory' : 'memories'}`;
  const earlier = p.backupParts?.earlier ?? 0;
  const trashed = p.backupParts?.trashed ?? 0;
  const updated = p.backupParts?.updated ?? 0;
  const upToDate = `bring ${updated} ${updated === 1 ? 'memory' : 'memories'} up to date`;
  if (p.fresh === 0) return upToDate[0]!.toUpperCase() + upToDate.slice(1);
  return `Restore ${kindsWords({ current: p.fresh - earlier - trashed, earlier, trashed })}${updated ? ` and ${upToDate}` : ''}`;
}

/** Something to do: new rows, or memories a backup brings up to date. */
const hasWork = (p: ImportPreview): boolean => p.fresh > 0 || (p.backupParts?.updated ?? 0) > 0;

/** Bring memories in: pick files or a folder, check the preview, import with progress and cancel. */
export function ImportCard() {
  const id = useId();
  // The bytes stay in a ref: a 100 MB file must not go through React state or be re-rendered.
  const files = useRef<ImportFile[]>([]);
  const [picked, setPicked] = useState<{ count: number; label: string } | null>(null);
  const [opts, setOpts] = useState<Options>({ textMode: 'line', quarantine: false });
  const [phase, setPhase] = useState<Phase>('idle');
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [progress, setProgress] = useState({ written: 0, total: 0 });
  const [outcome, setOutcome] = useState<string | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [pass, setPass] = useState('');
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  async function runPreview(next: Options) {
    setOpts(next);
    abort.current?.abort();
    const ctl = new AbortController();
    abort.current = ctl;
    setPhase('previewing');
    setError(null);
    setOutcome(null);
    const req: ImportRequest = {
      files: files.current,
      quarantine: next.quarantine,
      text: { mode: next.textMode },
      ...(next.format ? { format: next.format } : {}),
      ...(next.csv ? { csv: { mapping: next.csv } } : {}),
      ...(next.passphrase ? { passphrase: next.passphrase } : {}),
    };
    try {
      const p = await dataApi().previewImport(req, ctl.signal);
      if (ctl.signal.aborted) return;
      setPreview(p);
      setPhase('ready');
    } catch (e) {
      if (ctl.signal.aborted || isAborted(e)) return;
      setError(toShown(e));
      setPhase(files.current.length ? 'ready' : 'idle');
    }
  }

  async function pick(input: HTMLInputElement) {
    const list = Array.from(input.files ?? []);
    // cleared so that choosing the same files again (a second run) fires a change again
    input.value = '';
    if (list.length === 0) return;
    setPhase('reading');
    setPreview(null);
    setPass('');
    try {
      files.current = await readPicked(list);
    } catch (e) {
      setError(toShown(e));
      setPhase('idle');
      return;
    }
    const first = files.current[0];
    const folder = first?.path?.split('/')[0];
    setPicked({ count: files.current.length, label: folder && files.current.length > 1 ? `folder "${folder}"` : (first?.name ?? '') });
    // A new pick starts from automatic detection and no mapping.
    await runPreview({ textMode: opts.textMode, quarantine: opts.quarantine });
  }

  async function runImport() {
    if (!preview) return;
    const ctl = new AbortController();
    abort.current = ctl;
    setPhase('importing');
    setError(null);
    setProgress({ written: 0, total: preview.fresh });
    try {
      const out = await dataApi().runImport(preview.planId, { signal: ctl.signal, onProgress: setProgress });
      setOutcome(outcomeWords(out.written, out.skipped, out.cancelled, out.kinds, out.updated));
      setPreview(null);
      setPhase('done');
    } catch (e) {
      if (isAborted(e)) {
        setOutcome('Import cancelled. Every batch already saved is kept whole; importing the same files again skips them.');
        setPreview(null);
        setPhase('done');
        return;
      }
      setError(toShown(e));
      setPhase('ready');
    }
  }

  const busy = phase === 'reading' || phase === 'previewing' || phase === 'importing';
  const format = opts.format ?? preview?.format;
  const hasFiles = picked !== null;
  const pct = progress.total > 0 ? Math.round((100 * progress.written) / progress.total) : 0;

  return (
    <section className="card data-card" aria-labelledby={`${id}-h`} data-testid="data-import">
      <h2 id={`${id}-h`} className="card__title">
        Bring memories in
      </h2>
      <p className="field__hint">
        From a Mnemograph backup, Markdown notes or an Obsidian vault, browser bookmarks, plain text, a spreadsheet (CSV) or a ChatGPT
        export. You see what would be added before anything is saved.
      </p>
      <div className="actions">
        <label className="btn btn--secondary data__picker">
          Choose files
          <input type="file" multiple className="sr-only" disabled={busy} onChange={(e) => void pick(e.target)} data-testid="import-files" />
        </label>
        <label className="btn btn--secondary data__picker">
          Choose a folder
          <input
            type="file"
            className="sr-only"
            disabled={busy}
            onChange={(e) => void pick(e.target)}
            data-testid="import-folder"
            // webkitdirectory is not in React's types; it makes the picker choose a whole folder.
            {...{ webkitdirectory: '' }}
          />
        </label>
      </div>
      {picked && (
        <p className="field__hint" data-testid="import-picked">
          {picked.count === 1 ? picked.label : `${picked.count} files from ${picked.label}`}
          {phase === 'reading' && ': reading…'}
          {phase === 'previewing' && ': looking inside…'}
        </p>
      )}
      {hasFiles && (
        <div className="data__options">
          <label className="field">
            <span className="field__label">Format</span>
            <select
              value={format ?? ''}
              disabled={busy}
              onChange={(e) => void runPreview({ ...opts, format: e.target.value as ImportFormat, csv: undefined, passphrase: undefined })}
            >
              {/* once a preview failed nothing is being detected any more: the person picks the format */}
              {!format && <option value="">{busy ? 'detecting…' : 'choose a format'}</option>}
              {(Object.keys(FORMAT_LABELS) as ImportFormat[]).map((f) => (
                <option key={f} value={f}>
                  {FORMAT_LABELS[f]}
                </option>
              ))}
            </select>
          </label>
          {format === 'csv' && preview?.csvColumns && (
            <CsvMappingFields columns={preview.csvColumns} mapping={opts.csv} disabled={busy} onChange={(csv) => void runPreview({ ...opts, csv })} />
          )}
          {format === 'text' && <TextModeField mode={opts.textMode} disabled={busy} onChange={(textMode) => void runPreview({ ...opts, textMode })} />}
          <label className="data__check">
            <input type="checkbox" checked={opts.quarantine} disabled={busy} onChange={(e) => void runPreview({ ...opts, quarantine: e.target.checked })} />
            mark imported memories as unsure (you review them before they count in search)
          </label>
        </div>
      )}
      {preview?.needsPassphrase && phase !== 'importing' && (
        <form
          className="data__pass"
          onSubmit={(e) => {
            e.preventDefault();
            void runPreview({ ...opts, passphrase: pass });
          }}
        >
          <label className="field">
            <span className="field__label">This backup is protected: its passphrase</span>
            <input type="password" autoComplete="current-password" value={pass} onChange={(e) => setPass(e.target.value)} />
          </label>
          <button type="submit" className="btn btn--primary" disabled={busy || pass === ''}>
            Open backup
          </button>
        </form>
      )}
      {preview && !preview.needsPassphrase && phase !== 'importing' && <ImportPreviewPanel preview={preview} />}
      {/* nothing new: no "Restore 0 memories" to press; the preview says so in words (ImportPreviewPanel) */}
      {preview && !preview.needsPassphrase && phase === 'ready' && hasWork(preview) && (
        <div className="actions">
          <button type="button" className="btn btn--primary" onClick={() => void runImport()}>
            {importLabel(preview)}
          </button>
        </div>
      )}
      {phase === 'importing' && (
        <div className="data__progress" data-testid="import-progress">
          <div
            role="progressbar"
            aria-label="Import progress"
            aria-valuemin={0}
            aria-valuemax={progress.total}
            aria-valuenow={progress.written}
            aria-valuetext={`${progress.written} of ${progress.total}`}
            className="data__bar"
          >
            <span style={{ width: `${pct}%` }} />
          </div>
          <p className="field__hint">
            {progress.written} of {progress.total} saved
          </p>
          <button type="button" className="btn btn--secondary" onClick={() => abort.current?.abort()}>
            Cancel
          </button>
        </div>
      )}
      <ActionError error={error} testId="import-error" />
      {outcome && (
        <p className="data__ok" role="status" data-testid="import-outcome">
          {outcome}
        </p>
      )}
    </section>
  );
}
