import { useId } from 'react';
import { useObservable } from 'dexie-react-hooks';
import { services } from '../../services';
import { useUi } from '../../state/ui-store';
import { formatBytes, formatWhen, preview } from '../app/format';
import { toastError } from '../app/report';
import { SourceLink } from './SourceLink';

const LIMIT = 100;

/** Every memory, newest first, live from the database (other tabs' writes show up too). */
export function MemoryList() {
  const id = useId();
  const memories = useObservable(() => services().liveMemories(LIMIT), []);
  const count = useObservable(() => services().liveMemoryCount(), []);
  const pushToast = useUi((s) => s.pushToast);

  async function remove(memoryId: string) {
    try {
      await services().deleteMemory(memoryId);
      pushToast({ kind: 'info', message: 'Memory deleted.' });
    } catch (e) {
      toastError(e);
    }
  }

  return (
    <section className="card memories" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`} className="card__title">
        Memories <span className="count" data-testid="memory-count">{count ?? '…'}</span>
      </h2>
      {memories && memories.length === 0 && (
        <p className="empty" data-testid="memories-empty">
          Nothing here yet. Write your first memory above; it never leaves this device.
        </p>
      )}
      <ul className="memory-list" data-testid="memory-list">
        {memories?.map((m) => {
          const p = preview(m.text, 320);
          return (
            <li key={m.id} className="memory" data-testid="memory-item" data-memory-id={m.id}>
              <p className="memory__text">{p.text}</p>
              <div className="memory__meta">
                <time dateTime={new Date(m.createdAt).toISOString()}>{formatWhen(m.createdAt)}</time>
                {p.cut && <span className="badge badge--plain" title={`${m.text.length} characters, all kept`}>showing the start · all {formatBytes(m.text.length)} kept</span>}
                <span className="importance" title="Importance">
                  ★ {m.importance.toFixed(2)}
                </span>
                {m.source && <span className="memory__source">
                    from <SourceLink source={m.source} />
                  </span>}
                {m.tags.map((t) => (
                  <span key={t} className="chip chip--small">
                    #{t}
                  </span>
                ))}
                <button
                  type="button"
                  className="btn btn--ghost btn--small memory__delete"
                  onClick={() => void remove(m.id)}
                  aria-label={`Delete memory: ${p.text.slice(0, 40)}`}
                >
                  Delete
                </button>
              </div>
            </li>
          );
        })}
      </ul>
      {count != null && memories && count > memories.length && (
        <p className="field__hint">Showing the newest {memories.length} of {count}.</p>
      )}
    </section>
  );
}

