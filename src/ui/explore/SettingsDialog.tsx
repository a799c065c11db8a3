// Settings: similarity thresholds / weights / recent window (SimilaritySettings, validated by the
// core) and the saved recall defaults (RecallOptionsPanel + Save). A native modal <dialog>.
import { useEffect, useRef, useState } from 'react';
import { useObservable } from 'dexie-react-hooks';
import { RecallOptionsPanel, SimilaritySettings } from '../explorer';
import type { SimilarityConfig } from '../../core/spaces';
import type { RecallOptionsInput } from '../../core/recall';
import { services } from '../../services';
import { mergeOptions } from './explore-store';

export interface SettingsDialogProps {
  onClose: () => void;
  onSaved?: (c: SimilarityConfig) => void;
  onDefaultsSaved?: (o: RecallOptionsInput) => void;
}

export function SettingsDialog({ onClose, onSaved, onDefaultsSaved }: SettingsDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  // live queries: the dialog shows a save made here or in another tab
  const config = useObservable(() => services().liveSimilarityConfig(), []);
  const savedDefaults = useObservable(() => services().liveRecallDefaults(), []);
  const [defaults, setDefaults] = useState<RecallOptionsInput | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);

  // the draft starts from the saved defaults and follows each save
  useEffect(() => {
    if (savedDefaults) setDefaults(savedDefaults);
  }, [savedDefaults]);

  const saveDefaults = async () => {
    setError(null);
    try {
      const saved = await services().saveRecallDefaults(defaults ?? {});
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
              const saved = await services().saveSimilarityConfig(c);
              onSaved?.(saved);
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
