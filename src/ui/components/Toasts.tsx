import { useEffect } from 'react';
import { useUi, type Toast } from '../../state/ui-store';

const TTL: Record<Toast['kind'], number> = { info: 4000, success: 3000, error: 12000 };
/** A toast with a button (Undo) stays long enough to reach it. */
const ACTION_TTL = 10000;

/** Short messages; errors stay longer and say what to do (the AppError message). */
export function Toasts() {
  const toasts = useUi((s) => s.toasts);
  return (
    <div className="toasts" aria-live="polite" data-testid="toasts">
      {toasts.map((t) => (
        <ToastView key={t.id} t={t} />
      ))}
    </div>
  );
}

function ToastView({ t }: { t: Toast }) {
  const dismiss = useUi((s) => s.dismissToast);
  useEffect(() => {
    const h = setTimeout(() => dismiss(t.id), t.action ? ACTION_TTL : TTL[t.kind]);
    return () => clearTimeout(h);
  }, [t, dismiss]);
  return (
    <div className={`toast toast--${t.kind}`} role={t.kind === 'error' ? 'alert' : 'status'} data-testid="toast" data-code={t.code}>
      {/* on a phone a toast shows two lines at most: the whole message on hover / long press */}
      <span title={t.message}>{t.message}</span>
      {t.action && (
        <button
          type="button"
          className="btn btn--secondary btn--small"
          onClick={() => {
            dismiss(t.id);
            t.action!.run();
          }}
        >
          {t.action.label}
        </button>
      )}
      <button type="button" className="btn btn--ghost btn--small" onClick={() => dismiss(t.id)} aria-label="Dismiss message">
        ✕
      </button>
    </div>
  );
}
