// Settings: similarity thresholds / weights / recent window (SimilaritySettings, validated by the
// core) and the saved recall defaults (RecallOptionsPanel + Save). A native modal <dialog>.
import { useEffect, useRef, useState } from 'react';
import { RecallOptionsPanel, SimilaritySettings } from './panels';
import { LanguageModelSettings } from './panels/LanguageModelSettings';
import type { RecallOptionsInput } from '../../core/recall';
import { saveRecallDefaults, saveSimilarityConfig, useRecallDefaults, useSimilarityConfig } from '../app/use-settings';
import { errorMessage } from '../app/format';
import { mergeOptions } from './explore-store';

export interface SettingsDialogProps {
  onClose: () => void;
}

export function SettingsDialog({ onClose }: SettingsDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const config = useSimilarityConfig();
  const saved = useRecallDefaults();
  // The recall defaults as edited here; null = as saved.
  const [draft, setDraft] = useState<RecallOptionsInput | null>(null);
  const defaults = draft ?? saved.value;
  const [notice, setNotice] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const loadError = config.error ?? saved.error;
  const error = saveError ?? (loadError ? loadError.message : null);

  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
  }, []);

  const saveDefaults = async () => {
    setSaveError(null);
    try {
      setDraft(await saveRecallDefaults(defaults ?? {}));
      setNotice('Recall defaults saved.');
    } catch (e) {
      setSaveError(errorMessage(e));
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
        {config.value ? (
          <SimilaritySettings
            config={config.value}
            onSave={async (c) => {
              await saveSimilarityConfig(c);
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
            <RecallOptionsPanel value={defaults} onChange={(p) => { setNotice(null); setDraft(mergeOptions(defaults ?? {}, p)); }} />
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
      <section aria-labelledby="xs-llm" className="xs-section">
        <h3 id="xs-llm">Language model on this computer</h3>
        <LanguageModelSettings />
      </section>
    </dialog>
  );
}
