// Clearing out: remove the sample collection in one action, or delete every memory (the person
// types a confirmation first). Both move memories to the trash, so both can still be restored.
import { useId, useState } from 'react';
import { useUi } from '../../state/ui-store';
import { toastError } from '../app/report';
import { Modal } from './Modal';
import { memoriesWord } from './actions';
import { keepApi, type DeleteReceipt } from './keep-api';
import { useCount } from './use-browse';

/** What the person types to delete everything. */
export const DELETE_ALL_WORDS = 'delete all';

export function ConfirmDialog(props: {
  title: string;
  body: string;
  confirmLabel: string;
  /** When set, the person types these words before the button works. */
  typeToConfirm?: string;
  onConfirm(): void | Promise<void>;
  onCancel(): void;
}) {
  const id = useId();
  const [typed, setTyped] = useState('');
  const ok = !props.typeToConfirm || typed.trim().toLowerCase() === props.typeToConfirm;
  return (
    <Modal labelledBy={`${id}-h`} onClose={props.onCancel} testId="confirm-dialog" className="modal--small">
      <header className="modal__head">
        <h2 id={`${id}-h`}>{props.title}</h2>
      </header>
      <p>{props.body}</p>
      {props.typeToConfirm && (
        <label className="field">
          <span className="field__label">
            Type <strong>{props.typeToConfirm}</strong> to confirm
          </span>
          <input value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" data-autofocus data-testid="confirm-input" />
        </label>
      )}
      <div className="actions">
        <button type="button" className="btn btn--danger" disabled={!ok} onClick={() => void props.onConfirm()} data-testid="confirm-yes">
          {props.confirmLabel}
        </button>
        <button type="button" className="btn btn--ghost" onClick={props.onCancel} {...(props.typeToConfirm ? {} : { 'data-autofocus': true })}>
          Cancel
        </button>
      </div>
    </Modal>
  );
}

export function CleanUp() {
  const id = useId();
  const samples = useCount({ sample: true });
  const all = useCount({});
  const [asking, setAsking] = useState<'sample' | 'all' | null>(null);
  const pushToast = useUi((s) => s.pushToast);

  /** The toast's Undo: every row the delete moved comes back (earlier versions too); `what` names them as the toast did. */
  async function putBack(receipt: DeleteReceipt, what: string) {
    try {
      await keepApi().undoDelete(receipt);
      pushToast({ kind: 'success', message: `Put back ${what}.` });
    } catch (e) {
      toastError(e);
    }
  }

  async function run(job: 'sample' | 'all') {
    setAsking(null);
    try {
      if (job === 'sample') {
        const receipt = await keepApi().removeSample();
        pushToast({
          kind: 'info',
          message: `Removed the sample collection (${memoriesWord(receipt.ids.length)}) to the trash.`,
          action: { label: 'Undo', run: () => void putBack(receipt, 'the sample collection') },
        });
      } else {
        const receipt = await keepApi().trashAll();
        // the count the person confirmed (current memories): the receipt also holds their earlier versions
        const what = `all ${memoriesWord(all ?? receipt.ids.length)}`;
        pushToast({
          kind: 'info',
          message: `Moved ${what} to the trash.`,
          action: { label: 'Undo', run: () => void putBack(receipt, what) },
        });
      }
    } catch (e) {
      toastError(e);
    }
  }

  if (!all) return null;
  return (
    <section className="card cleanup" aria-labelledby={`${id}-h`} data-testid="cleanup">
      <h2 id={`${id}-h`} className="card__title">
        Clear out
      </h2>
      <p className="field__hint" data-testid="cleanup-hint">
        {samples ? 'Both move' : 'This moves'} memories to the trash, where you can restore them for 30 days.
      </p>
      <div className="actions">
        {!!samples && (
          <button type="button" className="btn btn--secondary" onClick={() => setAsking('sample')} data-testid="remove-sample">
            Remove sample collection ({memoriesWord(samples)})
          </button>
        )}
        <button type="button" className="btn btn--danger" onClick={() => setAsking('all')} data-testid="delete-all">
          Delete all memories
        </button>
      </div>
      {asking === 'sample' && (
        <ConfirmDialog
          title="Remove the sample collection?"
          body={`The ${memoriesWord(samples ?? 0)} of the sample collection go to the trash. Your own memories stay.`}
          confirmLabel="Remove sample collection"
          onCancel={() => setAsking(null)}
          onConfirm={() => run('sample')}
        />
      )}
      {asking === 'all' && (
        <ConfirmDialog
          title="Delete all memories?"
          body={`All ${memoriesWord(all)} go to the trash. After 30 days, or when you empty the trash, they are gone for good.`}
          confirmLabel="Delete all memories"
          typeToConfirm={DELETE_ALL_WORDS}
          onCancel={() => setAsking(null)}
          onConfirm={() => run('all')}
        />
      )}
    </section>
  );
}
