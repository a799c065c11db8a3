import { useId } from 'react';
import type { EncoderChoice } from '../../services';
import { formatBytes } from '../app/format';
import type { ShownError } from '../data/ActionError';
import type { DownloadState } from './use-models';

/** One encoder on offer: what it is (size, licence), whether it is here, and what can be done with it. */
export function ModelItem(props: {
  choice: EncoderChoice;
  switching: boolean;
  download: DownloadState | null;
  downloadBusy: boolean;
  downloadError: ShownError | null;
  justDownloaded: boolean;
  onDownload(): void;
  onCancelDownload(): void;
  onUse(): void;
  onRemove(): void;
}) {
  const id = useId();
  const { entry, available, canDownload, active } = props.choice;
  const state = active ? 'active' : available ? 'available' : canDownload ? 'downloadable' : 'unavailable';
  const badge = active ? 'In use' : available ? 'On this device' : canDownload ? 'Not downloaded' : 'Not available yet';
  const p = props.download?.progress;
  const pct = p && p.total > 0 ? Math.round((p.loaded / p.total) * 100) : 0;
  return (
    <li className="models__item" data-testid="model-item" data-model-id={entry.id} data-state={state} aria-labelledby={`${id}-n`}>
      <div className="models__head">
        <span id={`${id}-n`} className="models__name">
          {entry.label}
        </span>
        <span className={`badge ${active ? 'badge--plain models__badge--active' : 'badge--plain'}`} data-testid="model-badge">
          {badge}
        </span>
      </div>
      <p className="models__summary">{entry.summary}</p>
      <p className="models__facts">
        <span data-testid="model-size">{formatBytes(entry.bytes)}</span> · licence <span data-testid="model-licence">{entry.licence}</span>
      </p>
      {props.download && (
        <div className="models__progress" data-testid="model-download-progress" data-loaded={p?.loaded ?? 0} data-total={p?.total ?? entry.bytes}>
          <progress className="models__bar" max={100} value={pct} aria-label={`Downloading ${entry.label}`} />
          <span>
            {formatBytes(p?.loaded ?? 0)} of {formatBytes(p?.total ?? entry.bytes)}
          </span>
        </div>
      )}
      {props.downloadError && (
        <p className="alert--error" role="alert" data-testid="model-download-error" data-code={props.downloadError.code}>
          {props.downloadError.message}
        </p>
      )}
      {props.justDownloaded && (
        <p className="data__ok" data-testid="model-download-done">
          Downloaded and checked. It now works offline.
        </p>
      )}
      <div className="actions">
        {canDownload && !props.download && (
          <button type="button" className="btn btn--secondary" onClick={props.onDownload} disabled={props.downloadBusy} data-testid="model-download">
            Download ({formatBytes(entry.bytes)})
          </button>
        )}
        {props.download && (
          <button type="button" className="btn btn--secondary" onClick={props.onCancelDownload} data-testid="model-download-cancel">
            Cancel download
          </button>
        )}
        {available && !active && (
          <button type="button" className="btn btn--primary" onClick={props.onUse} disabled={props.switching} data-testid="model-use">
            Use this model
          </button>
        )}
        {available && !active && entry.source !== 'bundled' && (
          <button type="button" className="btn btn--secondary" onClick={props.onRemove} disabled={props.switching} data-testid="model-remove">
            Remove
          </button>
        )}
      </div>
      <details className="models__details">
        <summary>details</summary>
        <dl>
          <dt>Model</dt>
          <dd>{entry.name}</dd>
          <dt>Id (stored with every vector)</dt>
          <dd data-testid="model-id">{entry.id}</dd>
          <dt>Numbers per memory</dt>
          <dd data-testid="model-dim">{entry.dim}</dd>
          <dt>Reads up to</dt>
          <dd>{entry.maxTokens} tokens</dd>
          <dt>Query prefix</dt>
          <dd data-testid="model-query-prefix">{entry.queryPrefix ? `“${entry.queryPrefix}”` : 'none'}</dd>
          <dt>Memory prefix</dt>
          <dd data-testid="model-document-prefix">{entry.documentPrefix ? `“${entry.documentPrefix}”` : 'none'}</dd>
          <dt>Pooling</dt>
          <dd>{entry.pooling === 'cls' ? 'first token (CLS)' : 'mean of tokens'}</dd>
          <dt>Source</dt>
          <dd>{entry.provenance}</dd>
        </dl>
      </details>
    </li>
  );
}
