// The Memories list's sort and filters (tag, when it happened, source, importance, status) and
// its tags with counts: a tag chip filters by that tag (pressed again, it stops).
import { useId, useState } from 'react';
import { normaliseTag } from '../../core/validate';
import { useKeep, activeFilterCount } from './keep-store';
import type { BrowseQuery, BrowseSort, BrowseStatus, TagCount } from './keep-api';

const SORTS: { value: BrowseSort; label: string }[] = [
  { value: 'newest', label: 'Newest first' },
  { value: 'oldest', label: 'Oldest first' },
  { value: 'importance', label: 'Most important first' },
  { value: 'opened', label: 'Recently opened first' },
];

const STATUSES: { value: BrowseStatus; label: string }[] = [
  { value: 'current', label: 'All (not in the trash)' },
  { value: 'active', label: 'Confirmed only' },
  { value: 'quarantined', label: 'Unsure only' },
  { value: 'archived', label: 'Archived only' },
  { value: 'superseded', label: 'Earlier versions (corrected)' },
];

const IMPORTANCE = [0.25, 0.5, 0.75, 0.9];

/** "2026-03-05" -> local midnight (epoch ms); '' -> undefined. */
export function dayStart(value: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return undefined;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])).getTime();
}

/** epoch ms -> "2026-03-05" in local time (for a date input). */
export function dayValue(ms: number | undefined): string {
  if (ms === undefined) return '';
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

const DAY = 86_400_000;

export function BrowseFilters({ tags }: { tags: TagCount[] | null }) {
  const id = useId();
  const filters = useKeep((s) => s.filters);
  const patch = useKeep((s) => s.patchFilters);
  const clear = useKeep((s) => s.clearFilters);
  const n = activeFilterCount(filters);
  const [open, setOpen] = useState(n > 0);
  const [tagDraft, setTagDraft] = useState('');

  const addTag = () => {
    let t: string;
    try {
      t = normaliseTag(tagDraft);
    } catch {
      return;
    }
    if (t && !(filters.tags ?? []).includes(t)) patch({ tags: [...(filters.tags ?? []), t] });
    setTagDraft('');
  };

  return (
    <div className="browse__controls">
      <div className="browse__bar">
        <label className="field field--inline">
          <span className="field__label">Sort</span>
          <select value={filters.sort ?? 'newest'} onChange={(e) => patch({ sort: e.target.value as BrowseSort })} data-testid="browse-sort">
            {SORTS.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn btn--secondary btn--small" aria-expanded={open} aria-controls={`${id}-f`} onClick={() => setOpen((x) => !x)} data-testid="browse-filters-toggle">
          Filters{n > 0 ? ` (${n})` : ''}
        </button>
        {n > 0 && (
          <button type="button" className="btn btn--ghost btn--small" onClick={clear} data-testid="browse-clear">
            Clear filters
          </button>
        )}
      </div>
      <div id={`${id}-f`} className="browse__filters" hidden={!open} data-testid="browse-filters">
        <div className="field">
          <label className="field__label" htmlFor={`${id}-tag`}>
            Tag
          </label>
          <div className="inline-add">
            <input
              id={`${id}-tag`}
              list={`${id}-tags`}
              value={tagDraft}
              onChange={(e) => setTagDraft(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  addTag();
                }
              }}
              placeholder="garden"
              data-testid="browse-tag-input"
            />
            <button type="button" className="btn btn--secondary btn--small" onClick={addTag}>
              Add
            </button>
          </div>
          <datalist id={`${id}-tags`}>{tags?.slice(0, 200).map((t) => <option key={t.tag} value={t.tag} />)}</datalist>
        </div>
        <label className="field">
          <span className="field__label">Happened on or after</span>
          <input type="date" value={dayValue(filters.from)} onChange={(e) => patch({ from: dayStart(e.target.value) })} data-testid="browse-from" />
        </label>
        <label className="field">
          <span className="field__label">Happened on or before</span>
          <input
            type="date"
            value={dayValue(filters.to === undefined ? undefined : filters.to - DAY)}
            onChange={(e) => {
              const d = dayStart(e.target.value);
              patch({ to: d === undefined ? undefined : d + DAY });
            }}
            data-testid="browse-to"
          />
        </label>
        <label className="field">
          <span className="field__label">Source</span>
          <input
            value={filters.source ?? ''}
            onChange={(e) => patch({ source: e.target.value || undefined })}
            placeholder="exactly as saved"
            data-testid="browse-source"
          />
        </label>
        <label className="field">
          <span className="field__label">Importance</span>
          <select
            value={filters.importanceMin ?? ''}
            onChange={(e) => patch({ importanceMin: e.target.value === '' ? undefined : Number(e.target.value) })}
            data-testid="browse-importance"
          >
            <option value="">Any</option>
            {IMPORTANCE.map((x) => (
              <option key={x} value={x}>
                At least {x.toFixed(2)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span className="field__label">Show</span>
          <select value={filters.status ?? 'current'} onChange={(e) => patch({ status: e.target.value === 'current' ? undefined : (e.target.value as BrowseStatus) })} data-testid="browse-status">
            {STATUSES.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      </div>
    </div>
  );
}

/** Tags with counts; the first 24 shown, the rest behind "All tags". */
export function TagChips({ tags }: { tags: TagCount[] | null }) {
  const chosen = useKeep((s) => s.filters.tags) ?? [];
  const toggle = useKeep((s) => s.toggleTag);
  const [all, setAll] = useState(false);
  if (!tags || tags.length === 0) return null;
  const shown = all ? tags : tags.slice(0, 24);
  // a chosen tag stays visible (to un-choose it) even when it is not among the first
  const extra = chosen.filter((t) => !shown.some((s) => s.tag === t)).map((tag) => ({ tag, count: tags.find((x) => x.tag === tag)?.count ?? 0 }));
  return (
    <div className="tag-chips" role="group" aria-label="Tags (press one to show only memories with it)" data-testid="tag-chips">
      {[...extra, ...shown].map((t) => (
        <button
          key={t.tag}
          type="button"
          className="chip chip--button"
          aria-pressed={chosen.includes(t.tag)}
          onClick={() => toggle(t.tag)}
          data-testid="tag-chip"
          data-tag={t.tag}
        >
          #{t.tag} <span className="chip__count">{t.count.toLocaleString('en')}</span>
        </button>
      ))}
      {tags.length > 24 && (
        <button type="button" className="btn btn--ghost btn--small" onClick={() => setAll((x) => !x)} aria-expanded={all}>
          {all ? 'Fewer tags' : `All ${tags.length} tags`}
        </button>
      )}
    </div>
  );
}

export function hasQuery(f: BrowseQuery): boolean {
  return activeFilterCount(f) > 0;
}
