// "Recent work": the memories of the recent window the divergence alert compared the query with.
import type { Ref } from 'react';
import type { DivergenceView } from '../../services';
import type { MemoryId } from '../../core/types';
import { labelOf } from './view-model';
import { formatDate, isoDateTime } from '../app/format';

export interface RecentWorkProps {
  recent: DivergenceView['recent'];
  onOpen: (id: MemoryId) => void;
  onHide: () => void;
  /** Focused when the alert's "Show recent work" opens it. */
  ref?: Ref<HTMLElement>;
}

export function RecentWork({ recent, onOpen, onHide, ref }: RecentWorkProps) {
  return (
    <section className="card explore__recent" aria-labelledby="xrr-h" tabIndex={-1} ref={ref} data-testid="explore-recent">
      <h2 id="xrr-h" className="card__title">
        Recent work
        <button type="button" className="btn btn--ghost btn--small" onClick={onHide}>
          Hide
        </button>
      </h2>
      {recent.length === 0 ? (
        <p className="empty">Nothing recent.</p>
      ) : (
        <ul className="xr-list">
          {recent.map((r) => (
            <li key={r.id}>
              <button type="button" className="xr-item" data-testid="explore-recent-item" onClick={() => onOpen(r.id)}>
                <span className="xr-item__title">{labelOf(r.label, 120)}</span>
                <time className="xr-item__meta" dateTime={isoDateTime(r.createdAt)}>{formatDate(r.createdAt)}</time>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
