import { modelProgress } from '../app/boot';
import { useExternal } from '../app/use-store';
import { formatBytes } from '../app/format';

const BACKEND_LABEL = { webgpu: 'WebGPU', wasm: 'WASM', cpu: 'CPU' } as const;

/** The sentence encoder's load state: bytes while fetching, then warming up, then ready + backend. */
export function ModelStatus() {
  const p = useExternal(modelProgress);
  const backend = p.backend ? BACKEND_LABEL[p.backend] : null;
  let label: string;
  let pct: number | null = null;
  switch (p.phase) {
    case 'fetching-model':
      pct = p.total ? Math.min(100, Math.round(((p.loaded ?? 0) / p.total) * 100)) : null;
      label = p.total ? `Loading model ${formatBytes(p.loaded ?? 0)} / ${formatBytes(p.total)}` : 'Loading model…';
      break;
    case 'warming-up':
      label = 'Warming up…';
      break;
    case 'ready':
      label = 'Model ready';
      break;
    default:
      label = p.message ?? 'The sentence encoder could not be loaded. Reload to try again.';
  }
  return (
    <div className={`model-status model-status--${p.phase}`} data-testid="model-status" data-phase={p.phase} role="status" aria-live="polite">
      <span className="model-status__dot" aria-hidden="true" />
      <span className="model-status__label">{label}</span>
      {backend && p.phase !== 'error' && (
        <span className="badge badge--plain" data-testid="model-backend" data-backend={p.backend} title={`Runs in this browser, offline, on ${backend}`}>
          on this device
        </span>
      )}
      {pct !== null && (
        <progress className="model-status__bar" max={100} value={pct} aria-label="Model download progress" />
      )}
    </div>
  );
}
