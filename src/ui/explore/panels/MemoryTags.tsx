// The memory's tags: remove one, accept a suggested one, add new ones (normalised by the core).
import { useId, useRef, useState } from 'react';
import { normaliseTags } from '../../../core/validate';
import { errorMessage } from '../../app/format';

export function MemoryTags(props: { tags: string[]; suggested: string[]; onTagsChange?: (tags: string[]) => void | Promise<void> }) {
  const { tags, suggested, onTagsChange } = props;
  const [draft, setDraft] = useState('');
  const [error, setError] = useState('');
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const pending = suggested.filter((t) => !tags.includes(t));

  const change = async (next: string[]) => {
    if (!onTagsChange) return;
    setError('');
    try {
      await onTagsChange(next);
    } catch (e) {
      setError(errorMessage(e));
    }
  };

  const add = () => {
    let parsed: string[];
    try {
      parsed = normaliseTags(draft);
    } catch (e) {
      setError(errorMessage(e));
      return;
    }
    const fresh = parsed.filter((t) => !tags.includes(t));
    setDraft('');
    if (fresh.length > 0) void change([...tags, ...fresh]);
  };

  return (
    <section aria-label="Tags" className="mg-tags" data-testid="memory-tags">
      <h3 className="mg-subtitle">Tags</h3>
      {tags.length === 0 ? (
        <p className="mg-muted mg-small">No tags yet.</p>
      ) : (
        <ul className="mg-chips" aria-label="Tags">
          {tags.map((t) => (
            <li key={t} className="mg-chip" data-testid={`memory-tag-${t}`}>
              {t}
              {onTagsChange && (
                <button type="button" className="mg-chip__x" aria-label={`Remove tag ${t}`} onClick={() => void change(tags.filter((x) => x !== t))}>
                  ×
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
      {pending.length > 0 && (
        <div className="mg-suggested">
          <span className="mg-muted mg-small">Suggested:</span>
          <ul className="mg-chips" aria-label="Suggested tags">
            {pending.map((t) => (
              <li key={t}>
                {onTagsChange ? (
                  <button
                    type="button"
                    className="mg-chip mg-chip--suggested"
                    aria-label={`Accept suggested tag ${t}`}
                    data-testid={`memory-suggested-${t}`}
                    onClick={() => {
                      // the chip goes away once accepted: focus stays in the panel (Escape, Tab still work)
                      inputRef.current?.focus();
                      void change([...tags, t]);
                    }}
                  >
                    + {t}
                  </button>
                ) : (
                  <span className="mg-chip mg-chip--suggested">{t}</span>
                )}
              </li>
            ))}
          </ul>
        </div>
      )}
      {onTagsChange && (
        <div className="mg-inline">
          <label htmlFor={inputId} className="mg-visually-hidden">Add a tag</label>
          <input
            ref={inputRef}
            id={inputId}
            className="mg-input"
            placeholder="Add a tag (comma-separated)"
            data-testid="memory-tag-input"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
          />
          <button type="button" className="mg-btn" onClick={add} disabled={draft.trim() === ''}>
            Add tag
          </button>
        </div>
      )}
      {error && (
        <p role="alert" className="mg-field__error">
          {error}
        </p>
      )}
    </section>
  );
}
