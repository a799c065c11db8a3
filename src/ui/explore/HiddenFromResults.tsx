// "Hidden from results": the memories the person pushed away (Suppress), each named by its first
// words with when it was hidden, and Undo, which puts it back (services().undoSuppress). Live: a
// suppression in the memory panel (or in another tab) shows here at once. Nothing is shown while
// nothing is hidden.
import { useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { services } from '../../services';
import type { MemoryId } from '../../core/types';
import { formatDate, isoDateTime } from '../app/format';
import { toastError } from '../app/report';
import { labelOf } from './view-model';

export function HiddenFromResults({ onOpen }: { onOpen: (id: MemoryId) => void }) {
  const hidden = useLiveQuery(() => services().listHidden(), [], undefined);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState<MemoryId | null>(null);
  if (!hidden || (hidden.length === 0 && !message)) return null;

  const undo = async (id: MemoryId, name: string) => {
    setBusy(id);
    try {
      await services().undoSuppress(id);
      setMessage(`Back in results: “${name}”.`);
    } catch (e) {
      toastError(e);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="card explore__hidden" aria-labelledby="xh-h" data-testid="explore-hidden">
      <h2 id="xh-h" className="card__title">
        Hidden from results <span className="count">{hidden.length}</span>
      </h2>
      {hidden.length === 0 ? (
        <p className="empty">Nothing is hidden.</p>
      ) : (
        <>
          <p className="field__hint">You pushed these away: they stay out of lateral hits and chains and sink in the results.</p>
          <ul className="xr-list">
            {hidden.map((h) => {
              const name = labelOf(h.memory.text, 60);
              return (
                <li key={h.memory.id} className="xh-item" data-testid="explore-hidden-item" data-memory-id={h.memory.id}>
                  <button type="button" className="xh-item__name" onClick={() => onOpen(h.memory.id)}>
                    {name}
                  </button>
                  <span className="xr-item__meta">
                    hidden <time dateTime={isoDateTime(h.at)}>{formatDate(h.at)}</time>
                    {h.reason && h.reason !== 'undo' ? ` · “${h.reason}”` : ''}
                  </span>
                  <button
                    type="button"
                    className="btn btn--secondary btn--small"
                    data-testid="explore-hidden-undo"
                    aria-label={`Undo hiding “${name}”`}
                    disabled={busy === h.memory.id}
                    onClick={() => void undo(h.memory.id, name)}
                  >
                    Undo
                  </button>
                </li>
              );
            })}
          </ul>
        </>
      )}
      <p className="sr-only-status" role="status" data-testid="explore-hidden-message">
        {message}
      </p>
    </section>
  );
}
