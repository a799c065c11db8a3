import { useId, useMemo, useRef, useState, type ClipboardEvent, type FormEvent, type KeyboardEvent } from 'react';
import { keepApi } from '../memories/keep-api';
import { useKeep } from '../memories/keep-store';
import { dayStart, dayValue } from '../memories/BrowseFilters';
import { normaliseTags } from '../../core/validate';
import { MAX_EMBED_CHARS } from '../../embed/types';
import { isAppError } from '../../core/errors';
import { useUi } from '../../state/ui-store';
import { errorMessage, formatBytes } from '../app/format';
import { logError } from '../app/report';
import { pastedFile, PicturePicker, preparePicture, type PictureDraft } from '../memories/pictures';
import { useCaptureDraft } from './capture-draft';
import { RuleCheckbox } from './RuleCheckbox';

/** New memory: text, comma-separated tags (normalised chips shown), importance, source, a picture. */
/** A "when did this happen" day after today (local days, as the date field shows them). */
function isFutureDay(value: string, now = Date.now()): boolean {
  const day = dayStart(value);
  const today = dayStart(dayValue(now));
  return day !== undefined && today !== undefined && day > today;
}

export function CaptureForm({ disabled }: { disabled: boolean }) {
  const id = useId();
  // the fields live in the draft store, so leaving the view and coming back keeps what was typed
  const { text, tags, importance, source, happened, picture, update, clear } = useCaptureDraft();
  const setText = (v: string) => update({ text: v });
  const setTags = (v: string) => update({ tags: v });
  const setImportance = (v: number) => update({ importance: v });
  const setSource = (v: string) => update({ source: v });
  const setHappened = (v: string) => update({ happened: v });
  const setPicture = (v: PictureDraft) => update({ picture: v });
  const [duplicate, setDuplicate] = useState<{ id: string } | null>(null);
  const [pictureError, setPictureError] = useState<string | null>(null);
  const openMemory = useKeep((s) => s.open);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ code: string; message: string } | null>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const pushToast = useUi((s) => s.pushToast);
  const chips = useMemo(() => normaliseTags(tags), [tags]);
  const long = text.length > MAX_EMBED_CHARS;

  async function submit(e?: FormEvent) {
    e?.preventDefault();
    if (busy || disabled) return;
    setBusy(true);
    setError(null);
    setDuplicate(null);
    try {
      // "when did this happen" is the memory's time (createdAt), as in the editor: the list shows and
      // sorts by it, and the services make the memory true from it (validFrom follows createdAt).
      // Today's date means now (its midnight would move a note written today to before breakfast).
      const day = dayStart(happened);
      const createdAt = day !== undefined && day !== dayStart(dayValue(Date.now())) ? day : undefined;
      const out = await keepApi().saveMemory({
        text,
        tags: chips,
        importance,
        source: source.trim() || undefined,
        ...(createdAt !== undefined ? { createdAt } : {}),
        ...(picture.prepared ? { image: { prepared: picture.prepared, caption: picture.caption } } : {}),
      });
      if (out.kind === 'already-saved') {
        // nothing was written: say so, keep the text, offer the one that is there
        setDuplicate({ id: out.memory.id });
        return;
      }
      clear();
      pushToast({ kind: 'success', message: 'Memory saved.' });
      textRef.current?.focus();
    } catch (err) {
      // shown under the form (the person can fix the text or retry); an unexpected failure is logged too
      const code = isAppError(err) ? err.code : logError(err).code;
      setError({ code, message: errorMessage(err) });
      textRef.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  /** A picture pasted anywhere in the form is attached (text pastes go on as usual). */
  async function onPaste(e: ClipboardEvent) {
    const file = pastedFile(e);
    if (!file) return;
    e.preventDefault();
    setPictureError(null);
    const out = await preparePicture(file, picture);
    if ('error' in out) setPictureError(out.error);
    else setPicture(out.draft);
  }

  function onKeyDown(e: KeyboardEvent) {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      void submit();
    }
  }

  return (
    <section className="card capture" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`} className="card__title">
        New memory
      </h2>
      <form onSubmit={submit} onKeyDown={onKeyDown} onPaste={(e) => void onPaste(e)} data-testid="capture-form" noValidate>
        <label className="field">
          <span className="field__label">What do you want to remember?</span>
          <textarea
            ref={textRef}
            data-testid="capture-text"
            rows={4}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setDuplicate(null);
            }}
            placeholder="Took the car to the garage to repair the engine…"
            aria-invalid={error?.code === 'EMPTY_TEXT' || undefined}
            aria-describedby={`${id}-hint`}
          />
        </label>
        <p id={`${id}-hint`} className="field__hint">
          {text.length > 0 && <span data-testid="capture-length">{formatBytes(new Blob([text]).size)} · </span>}
          <kbd>Ctrl</kbd>+<kbd>Enter</kbd> to save
        </p>
        {long && (
          <p className="note" data-testid="truncation-note" role="note">
            Stored whole; only the first {MAX_EMBED_CHARS.toLocaleString('en')} characters are used for search.
          </p>
        )}
        <div className="field-row">
          <div className="field--grow">
            <label className="field">
              <span className="field__label">Tags</span>
              <input
                data-testid="capture-tags"
                value={tags}
                onChange={(e) => setTags(e.target.value)}
                placeholder="car, errands"
                aria-describedby={`${id}-chips`}
              />
            </label>
            <ul className="chips" id={`${id}-chips`} aria-label="Tags as they will be saved" data-testid="capture-chips">
              {chips.map((t) => (
                <li key={t} className="chip">
                  #{t}
                </li>
              ))}
            </ul>
          </div>
          <label className="field field--grow">
            <span className="field__label">Source (optional)</span>
            <input data-testid="capture-source" value={source} onChange={(e) => setSource(e.target.value)} placeholder="journal, email, …" />
          </label>
          <div className="field field--grow">
            <label className="field__label" htmlFor={`${id}-happened`}>
              When did this happen? (optional)
            </label>
            <input id={`${id}-happened`} type="date" value={happened} onChange={(e) => setHappened(e.target.value)} data-testid="capture-happened" aria-describedby={`${id}-when`} />
            <span id={`${id}-when`} className="field__hint">
              Leave empty for now. A past date dates the memory that day, and it counts as true since then.
            </span>
            {isFutureDay(happened) && (
              // a slip of the year (2062 for 2026) would date the memory decades away: said, not refused (a plan may be meant)
              <span className="field__hint field__hint--warn" role="status" data-testid="capture-future-day">
                That day has not come yet: the memory will be dated {happened}. Check the year if you meant a day that has passed.
              </span>
            )}
          </div>
        </div>
        <RuleCheckbox tags={tags} onChange={setTags} testId="capture-rule" />
        <label className="field">
          <span className="field__label">
            Importance <output data-testid="capture-importance-value">{importance.toFixed(2)}</output>
          </span>
          <input
            type="range"
            min={0}
            max={1}
            step={0.05}
            value={importance}
            data-testid="capture-importance"
            onChange={(e) => setImportance(Number(e.target.value))}
          />
        </label>
        <PicturePicker value={picture} onChange={setPicture} error={pictureError} onError={setPictureError} testId="capture-picture" />
        {duplicate && (
          <p className="note" role="status" data-testid="capture-duplicate">
            You already saved this exact text, so nothing new was saved.{' '}
            <button type="button" className="btn btn--secondary btn--small" onClick={() => openMemory(duplicate.id)} data-testid="open-duplicate">
              Open the saved memory
            </button>
          </p>
        )}
        {error && (
          <p className="alert alert--error" role="alert" data-testid="capture-error" data-code={error.code}>
            {error.message}
          </p>
        )}
        <div className="actions">
          <button type="submit" className="btn btn--primary" disabled={busy || disabled} data-testid="capture-submit">
            {busy ? 'Saving…' : 'Save memory'}
          </button>
        </div>
      </form>
    </section>
  );
}
