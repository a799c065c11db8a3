// The full list, virtualised: only the rows on screen (and a few either side) are in the page, so
// 100k memories scroll like 100. Rows have one fixed height; each has a selection box and a
// button that opens the memory. The rows a person can reach with Tab are the rendered ones; the
// browser scrolls a focused row into view and the list renders its neighbours.
import { useEffect, useRef, type CSSProperties, type ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { formatWhen } from '../app/format';
import type { Browse } from './use-browse';
import { TRASH_DAYS, type MemoryHeader } from './keep-api';

export const ROW_HEIGHT = 76;

export interface MemoryRowsProps {
  browse: Browse;
  selected: ReadonlySet<string>;
  onToggle(id: string): void;
  onOpen(id: string): void;
  /** What the rows are (an accessible name for the list). */
  label: string;
  /** false: no status badge (the Trash, where every row is in the trash). */
  showStatus?: boolean;
  /** Extra buttons at the end of a row (Trash: Restore; Review: Keep / Discard). */
  actions?: (m: MemoryHeader) => ReactNode;
}

export function statusWords(m: Pick<MemoryHeader, 'status' | 'deletedAt' | 'supersededBy'>): string | null {
  if (m.deletedAt !== null) return 'In the trash';
  if (m.supersededBy) return 'Earlier version';
  if (m.status === 'quarantined') return 'Unsure';
  if (m.status === 'archived') return 'Archived';
  return null;
}

export function MemoryRows({ browse, selected, onToggle, onOpen, label, actions, showStatus = true }: MemoryRowsProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const count = browse.total ?? 0;
  const v = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const items = v.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  const { ensure } = browse;
  useEffect(() => {
    if (count > 0) ensure(first, last + 1);
  }, [first, last, count, ensure]);

  return (
    // the box is as tall as its rows, up to most of the screen (keep.css)
    <div ref={scrollRef} className="rows" data-testid="memory-list" data-total={count} style={{ '--rows-h': `${Math.max(v.getTotalSize(), ROW_HEIGHT) + 2}px` } as CSSProperties}>
      <ul className="rows__inner" aria-label={label} style={{ height: v.getTotalSize() }}>
        {items.map((row) => {
          const m = browse.item(row.index);
          return (
            <li
              key={row.key}
              className="row"
              aria-setsize={count}
              aria-posinset={row.index + 1}
              data-index={row.index}
              data-testid="memory-item"
              data-memory-id={m?.id}
              style={{ transform: `translateY(${row.start}px)`, height: ROW_HEIGHT }}
            >
              {m ? <Row m={m} checked={selected.has(m.id)} onToggle={onToggle} onOpen={onOpen} actions={actions} showStatus={showStatus} /> : <span className="row__loading">Loading…</span>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}

/** The day the start-up purge removes a memory deleted at `deletedAt` (TRASH_DAYS later): "Dec 25, 2026". */
export function purgeDay(deletedAt: number): string {
  return new Date(deletedAt + TRASH_DAYS * 86_400_000).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}

function Row({ m, checked, onToggle, onOpen, actions, showStatus }: { m: MemoryHeader; checked: boolean; showStatus: boolean } & Pick<MemoryRowsProps, 'onToggle' | 'onOpen' | 'actions'>) {
  const status = showStatus ? statusWords(m) : null;
  const title = m.title.replace(/^#{1,6}\s+/, '') || '(no text)'; // a Markdown heading's marks are not words
  return (
    <>
      <input type="checkbox" className="row__check" checked={checked} onChange={() => onToggle(m.id)} aria-label={`Select: ${title.slice(0, 60)}`} />
      <div className="row__body">
        <button type="button" className="row__open" onClick={() => onOpen(m.id)} data-testid="memory-row-open">
          {title}
        </button>
        <div className="row__meta">
          {!showStatus && m.deletedAt !== null && (
            <span className="row__purge" data-testid="row-purge" title={`Removed for good on that day, ${TRASH_DAYS} days after it was deleted`}>
              kept until {purgeDay(m.deletedAt)}
            </span>
          )}
          <time dateTime={new Date(m.createdAt).toISOString()}>{formatWhen(m.createdAt)}</time>
          <span title="Importance">★ {m.importance.toFixed(2)}</span>
          {m.picture !== undefined && (
            <span className="row__picture" title={m.picture} data-testid="row-picture">
              with a picture
            </span>
          )}
          {status && <span className={`badge badge--status`} data-testid="row-status">{status}</span>}
          {m.source && <span className="row__source">from {m.source}</span>}
          {m.tags.slice(0, 3).map((t) => (
            <span key={t} className="chip chip--small">
              #{t}
            </span>
          ))}
          {m.tags.length > 3 && <span className="row__more">+{m.tags.length - 3}</span>}
        </div>
      </div>
      {actions && <div className="row__actions">{actions(m)}</div>}
    </>
  );
}
