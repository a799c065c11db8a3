// Settings, one modal <dialog> for the whole app (the header's Settings button, the command
// palette, Explore's Settings button): the everyday settings first, then the expert ones (the
// thirteen spaces' thresholds and weights, the recall defaults, the language model on this
// computer that deeper search may ask, off by default) folded under "Advanced".
// On a phone it fills the screen and nothing in it scrolls sideways.
import { useState } from 'react';
import { ModalDialog } from '../components/ModalDialog';
import { RecallOptionsPanel, SimilaritySettings } from '../explore/panels';
import type { RecallOptionsInput } from '../../core/recall';
import { saveRecallDefaults, saveSimilarityConfig, useRecallDefaults, useSimilarityConfig } from '../app/use-settings';
import { errorMessage } from '../app/format';
import { mergeOptions } from '../explore/explore-store';
import { LanguageModelSettings } from '../explore/panels/LanguageModelSettings';
import { EverydaySettings } from './EverydaySettings';
import { DeepSearchDashboard } from './DeepSearchDashboard';
import './settings.css';

export interface SettingsDialogProps {
  onClose: () => void;
  /** "Show the guide again" was pressed (the dialog closes so the guide can be seen). */
  onGuide?: () => void;
  /** Open with "Advanced" unfolded. */
  advancedOpen?: boolean;
}

export function SettingsDialog({ onClose, onGuide, advancedOpen = false }: SettingsDialogProps) {
  const config = useSimilarityConfig();
  const saved = useRecallDefaults();
  // The recall defaults as edited here; null = as saved.
  const [draft, setDraft] = useState<RecallOptionsInput | null>(null);
  const defaults = draft ?? saved.value;
  const [notice, setNotice] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);
  const loadError = config.error ?? saved.error;

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
    <ModalDialog className="xs-dialog settings-dialog" labelledBy="settings-title" testId="settings-dialog" onClose={onClose}>
      <header className="xs-dialog__head settings-dialog__head">
        <h2 id="settings-title">Settings</h2>
        <button type="button" className="btn btn--ghost" onClick={onClose} data-testid="settings-close">
          Close
        </button>
      </header>
      {loadError && (
        <p className="alert alert--error" role="alert">
          {loadError.message}
        </p>
      )}
      <EverydaySettings
        onGuide={() => {
          onGuide?.();
          onClose();
        }}
      />
      <DeepSearchSection />
      <details className="settings-advanced" data-testid="settings-advanced" open={advancedOpen}>
        <summary>Advanced: how each kind of similarity counts, recall options, a language model on this computer</summary>
        <p className="field__hint">
          For people who want to tune the search. The defaults work well; &quot;Reset to defaults&quot; brings them back.
        </p>
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
              <RecallOptionsPanel
                value={defaults}
                onChange={(p) => {
                  setNotice(null);
                  setDraft(mergeOptions(defaults ?? {}, p));
                }}
              />
              <div className="actions">
                <button type="button" className="btn btn--primary" onClick={saveDefaults} data-testid="recall-defaults-save">
                  Save recall defaults
                </button>
              </div>
            </>
          )}
          {saveError && (
            <p className="alert alert--error" role="alert" data-testid="recall-defaults-error">
              {saveError}
            </p>
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
      </details>
    </ModalDialog>
  );
}

/** "How deeper search is doing": the dashboard, read from the log only when unfolded. */
function DeepSearchSection() {
  const [open, setOpen] = useState(false);
  return (
    <details className="settings-advanced" data-testid="deep-dash-section" onToggle={(e) => setOpen((e.target as HTMLDetailsElement).open)}>
      <summary>How deeper search is doing</summary>
      {open && <DeepSearchDashboard />}
    </details>
  );
}
