import { modelProgress } from '../app/boot';
import { useExternal } from '../app/use-store';
import { modelLoadWords } from './model-load-words';
import { DEFAULT_ENCODER_ID, encoderMeta } from '../../embed/encoders';
import { modelFailureKind, modelFailureReason, modelUnavailableText } from '../../embed/load-failure';

const BACKEND_LABEL = { webgpu: 'WebGPU', wasm: 'WASM', cpu: 'CPU' } as const;

/**
 * The sentence encoder's load state: bytes while fetching, then warming up, then ready; which
 * encoder runs (its short name, the full one on hover), and why when it is the fallback.
 */
export function ModelStatus() {
  const p = useExternal(modelProgress);
  const backend = p.backend ? BACKEND_LABEL[p.backend] : null;
  const meta = p.encoder ? encoderMeta(p.encoder) : undefined;
  let label: string;
  let pct: number | null = null;
  let bytes: string | null = null;
  /** When the model failed: the whole sentence (why, and that keyword search works), under Details. */
  let failure: string | null = null;
  switch (p.phase) {
    case 'fetching-model': {
      const words = modelLoadWords(p, meta);
      ({ label, pct } = words);
      bytes = words.detail;
      break;
    }
    case 'warming-up':
      label = 'Warming up…';
      break;
    case 'ready':
      label = 'Model ready';
      break;
    default: {
      // short words in the header's row (it kept two or three rows with the whole sentence); what
      // happened and what still works in plain words under Details, the worker's own text after it
      const kind = modelFailureKind(p.message ?? '');
      label = kind === 'storage-full' ? "Couldn't keep the model" : "Couldn't load the model";
      failure = modelUnavailableText(kind);
    }
  }
  // the default could not be loaded and the fallback runs: say why in plain words (the details on hover)
  const note = p.phase === 'ready' && p.message && p.encoder !== DEFAULT_ENCODER_ID ? p.message : null;
  return (
    <div className={`model-status model-status--${p.phase}`} data-testid="model-status" data-phase={p.phase} role="status" aria-live="polite">
      <span className="model-status__dot" aria-hidden="true" />
      <span className="model-status__label">{label}</span>
      {/* while fetching, the model's name is under details with the figures: the header keeps one row */}
      {meta && p.phase !== 'error' && p.phase !== 'fetching-model' && (
        <span
          className="badge badge--plain"
          data-testid="model-encoder"
          data-encoder={meta.id}
          title={`Finds memories by meaning with ${meta.name}: ${meta.dim} numbers per memory, ${meta.licence} licence`}
        >
          {meta.label}
        </span>
      )}
      {backend && p.phase !== 'error' && (
        <span className="badge badge--plain" data-testid="model-backend" data-backend={p.backend} title={`Runs in this browser, offline, on ${backend}`}>
          on this device
        </span>
      )}
      {note && (
        <span className="model-status__note" data-testid="model-note" title={note}>
          (the better model couldn't be loaded: {modelFailureReason(modelFailureKind(note))})
        </span>
      )}
      {failure && (
        <details className="details model-status__details">
          {/* on a phone "No model" stands for the label here (shell.css): one tap to the sentence */}
          <summary>
            <span className="model-status__more">Details</span>
            <span className="model-status__short">No model</span>
          </summary>
          <p data-testid="model-error-words">
            {failure}
            {p.message && (
              <span className="model-status__why" data-testid="model-error-detail">
                {p.message}
              </span>
            )}
          </p>
        </details>
      )}
      {bytes && (
        <details className="details model-status__details">
          {/* the phone's header shows "Loading…" here in place of the label (shell.css): one tap to the figures */}
          <summary>
            <span className="model-status__more">details</span>
            <span className="model-status__short">Loading…</span>
          </summary>
          <p data-testid="model-load-bytes">{meta ? `${meta.label}: ${bytes}` : bytes}</p>
        </details>
      )}
      {/* a thin line along the status's lower edge: it takes no room in the header's row */}
      {pct !== null && <progress className="model-status__bar" max={100} value={pct} aria-label="Model download progress" />}
    </div>
  );
}
