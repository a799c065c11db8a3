// Settings: similarity thresholds / weights / recent window (SimilaritySettings, validated by the
// core) and the saved recall defaults (RecallOptionsPanel + Save). A native modal <dialog>.
import { useEffect, useRef, useState } from 'react';
import { RecallOptionsPanel, SimilaritySettings } from './panels';
import type { SimilarityConfig } from '../../core/spaces';
import type { RecallOptionsInput } from '../../core/recall';
import { getRecallDefaults, getSimilarityConfig, saveRecallDefaults, saveSimilarityConfig } from '../../services';
import { mergeOptions } from './explore-store';

export interface SettingsDialogProps {
  onClose: () => void;
  onSaved: (c: SimilarityConfig) => void;
  onDefaultsSaved?: (o: RecallOptionsInput) => void;
}

export function SettingsDialog({ onClose, onSaved, onDefaultsSaved }: SettingsDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const [config, setConfig] = useState<SimilarityConfig | null>(null);
  const [defaults, setDefaults] = useState<RecallOptionsInput | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    let live = true;
    Promise.all([getSimilarityConfig(), getRecallDefaults()]).then(
      ([c, r]) => {
        if (!live) return;
        setConfig(c);
        setDefaults(r);
      },
      (e: unknown) => live && setError(e instanceof Error ? e.message : String(e)),
    );
    return () => {
      live = false;
    };
  }, []);

  const saveDefaults = async () => {
    setError(null);
    try {
      const saved = await saveRecallDefaults(defaults ?? {});
      setDefaults(saved);
      onDefaultsSaved?.(saved);
      setNotice('Recall defaults saved.');
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <dialog
      ref={ref}
      className="xs-dialog"
      aria-labelledby="xs-title"
      data-testid="settings-dialog"
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <header className="xs-dialog__head">
        <h2 id="xs-title">Settings</h2>
        <button type="button" className="btn btn--ghost" onClick={onClose} data-testid="settings-close">
          Close
        </button>
      </header>
      {error && (
        <p className="alert alert--error" role="alert">
          {error}
        </p>
      )}
      <section aria-labelledby="xs-sim" className="xs-section">
        <h3 id="xs-sim">Similarity thresholds and weights</h3>
        {config ? (
          <SimilaritySettings
            config={config}
            onSave={async (c) => {
              const saved = await saveSimilarityConfig(c);
              setConfig(saved);
              onSaved(saved);
            }}
          />
        ) : (
          <p className="empty">Loading…</p>
        )}
      </section>
      <section aria-labelledby="xs-recall" className="xs-section">
        <h3 id="xs-recall">Recall defaults</h3>
        <p className="field__hint">Used by every recall unless the Explore view picks something else.</p>
        {defaults && (
          <>
            <RecallOptionsPanel value={defaults} onChange={(p) => { setNotice(null); setDefaults((d) => mergeOptions(d ?? {}, p)); }} />
            <div className="actions">
              <button type="button" className="btn btn--primary" onClick={saveDefaults} data-testid="recall-defaults-save">
                Save recall defaults
              </button>
            </div>
          </>
        )}
        {notice && (
          <p className="note" role="status" data-testid="recall-defaults-notice">
            {notice}
          </p>
        )}
      </section>
    </dialog>
  );
}
