// "?": the keyboard shortcuts, in a small modal dialog.
import { ModalDialog } from '../components/ModalDialog';
import { shortcutList } from './keys';

export const isMac = (): boolean => /Mac|iPhone|iPad/.test(globalThis.navigator?.platform ?? '');

export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  return (
    <ModalDialog className="xs-dialog shortcuts" labelledBy="shortcuts-title" testId="shortcuts-dialog" onClose={onClose}>
      <header className="xs-dialog__head">
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <button type="button" className="btn btn--ghost" onClick={onClose} data-testid="shortcuts-close">
          Close
        </button>
      </header>
      <dl className="shortcuts__list">
        {shortcutList(isMac()).map((s) => (
          <div key={s.does} className="shortcuts__row">
            <dt>
              {s.keys.map((k, i) => (
                <span key={k}>
                  {i > 0 && ' + '}
                  <kbd>{k}</kbd>
                </span>
              ))}
            </dt>
            <dd>{s.does}</dd>
          </div>
        ))}
      </dl>
      <p className="field__hint">“/” and “?” do nothing while you type in a text field: there they are just characters.</p>
    </ModalDialog>
  );
}
