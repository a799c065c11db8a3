// Editing a memory: text, tags, importance, source, when it happened, and when it was true
// (from / until; empty "until" = still true). Only changed fields are sent; an edit makes a new
// version and the earlier one stays in the history.
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { normaliseTags } from '../../core/validate';
import { RuleCheckbox } from '../components/RuleCheckbox';
import { isAppError } from '../../core/errors';
import { useUi } from '../../state/ui-store';
import { errorMessage } from '../app/format';
import { logError } from '../app/report';
import { dayStart, dayValue } from './BrowseFilters';
import { keepApi, type KeptMemory, type MemoryPatch } from './keep-api';
import { pastedFile, PicturePicker, pictureOf, preparePicture, type PictureDraft } from './pictures';

/** epoch ms -> "2026-03-05T14:30" in local time (a datetime-local input). */
export function momentValue(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** "2026-03-05T14:30" (local) -> epoch ms; anything else -> undefined. */
export function momentStart(value: string): number | undefined {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return undefined;
  const t = new Date(value).getTime();
  return Number.isFinite(t) ? t : undefined;
}

export interface EditDraft {
  text: string;
  tags: string;
  importance: number;
  source: string;
  happened: string;
  validFrom: string;
  validTo: string;
}

export function draftOf(m: KeptMemory): EditDraft {
  return {
    text: m.text,
    tags: m.tags.join(', '),
    importance: m.importance,
    source: m.source ?? '',
    happened: momentValue(m.createdAt),
    validFrom: dayValue(m.validFrom),
    validTo: m.validTo === null ? '' : dayValue(m.validTo),
  };
}

/** The picture change of an edit: a new file, a new caption, removed, or nothing (undefined). */
export function pictureChange(m: KeptMemory, d: PictureDraft): MemoryPatch['image'] {
  const before = pictureOf(m.media);
  if (d.prepared) return { prepared: d.prepared, caption: d.caption };
  if (!d.keptId) return before.keptId ? null : undefined;
  return d.caption.trim() !== before.caption ? { caption: d.caption } : undefined;
}

/** The fields that changed, as the services take them; a date left as it was is not sent. */
export function patchOf(m: KeptMemory, d: EditDraft): MemoryPatch {
  const before = draftOf(m);
  const p: MemoryPatch = {};
  if (d.text !== before.text) p.text = d.text;
  const tags = normaliseTags(d.tags);
  if (tags.join(',') !== m.tags.join(',')) p.tags = tags;
  if (d.importance !== m.importance) p.importance = d.importance;
  if (d.source.trim() !== before.source) p.source = d.source.trim() || undefined;
  if (d.happened !== before.happened) {
    const t = momentStart(d.happened);
    if (t !== undefined) p.createdAt = t;
  }
  if (d.validFrom !== before.validFrom) {
    const t = dayStart(d.validFrom);
    if (t !== undefined) p.validFrom = t;
  }
  if (d.validTo !== before.validTo) p.validTo = d.validTo === '' ? null : (dayStart(d.validTo) ?? null);
  return p;
}

/** `onDirty` hears whether anything differs from the stored memory (the dialog asks before closing over it). */
export function MemoryEditor({ memory, onDone, onDirty }: { memory: KeptMemory; onDone(): void; onDirty?(dirty: boolean): void }) {
  const id = useId();
  const [d, setD] = useState<EditDraft>(() => draftOf(memory));
  const [picture, setPicture] = useState<PictureDraft>(() => pictureOf(memory.media));
  const [pictureError, setPictureError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ code: string; message: string } | null>(null);
  const textRef = useRef<HTMLTextAreaElement>(null);
  const pushToast = useUi((s) => s.pushToast);
  const chips = useMemo(() => {
    try {
      return normaliseTags(d.tags);
    } catch {
      return [];
    }
  }, [d.tags]);
  const set = (p: Partial<EditDraft>) => setD((x) => ({ ...x, ...p }));
  const [initialPicture] = useState(picture);
  useEffect(() => {
    let changed = picture !== initialPicture;
    try {
      changed ||= Object.keys(patchOf(memory, d)).length > 0;
    } catch {
      changed = true; // an entry the patch refuses (a bad date) is still something typed
    }
    onDirty?.(changed);
  }, [d, picture, initialPicture, memory, onDirty]);
  useEffect(() => () => onDirty?.(false), [onDirty]);
  useEffect(() => textRef.current?.focus(), []); // the Edit button that had focus is gone

  async function save(e?: FormEvent) {
    e?.preventDefault();
    if (busy) return;
    setError(null);
    let patch: MemoryPatch;
    try {
      patch = patchOf(memory, d);
      const image = pictureChange(memory, picture);
      if (image !== undefined) patch.image = image;
    } catch (err) {
      setError({ code: isAppError(err) ? err.code : 'INVALID_OPTION', message: errorMessage(err) });
      return;
    }
    if (Object.keys(patch).length === 0) {
      onDone();
      return;
    }
    setBusy(true);
    try {
      await keepApi().updateMemory(memory.id, patch);
      pushToast({ kind: 'success', message: 'Saved. The earlier version is kept in its history.' });
      onDone();
    } catch (err) {
      const code = isAppError(err) ? err.code : logError(err).code;
      setError({ code, message: errorMessage(err) });
      textRef.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="editor"
      onSubmit={save}
      onKeyDown={(e) => {
        if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
          e.preventDefault();
          void save();
        }
      }}
      onPaste={(e) => {
        const file = pastedFile(e);
        if (!file) return;
        e.preventDefault();
        setPictureError(null);
        void preparePicture(file, picture).then((out) => ('error' in out ? setPictureError(out.error) : setPicture(out.draft)));
      }}
      data-testid="memory-editor"
      noValidate
    >
      <label className="field">
        <span className="field__label">Text</span>
        <textarea ref={textRef} data-autofocus rows={8} value={d.text} onChange={(e) => set({ text: e.target.value })} data-testid="edit-text" />
      </label>
      <div className="field-row">
        <label className="field field--grow">
          <span className="field__label">Tags</span>
          <input value={d.tags} onChange={(e) => set({ tags: e.target.value })} aria-describedby={`${id}-chips`} data-testid="edit-tags" />
          <span id={`${id}-chips`} className="field__hint">
            {chips.length ? chips.map((t) => `#${t}`).join(' ') : 'no tags'}
          </span>
        </label>
        <label className="field field--grow">
          <span className="field__label">Source</span>
          <input value={d.source} onChange={(e) => set({ source: e.target.value })} data-testid="edit-source" />
        </label>
      </div>
      <RuleCheckbox tags={d.tags} onChange={(tags) => set({ tags })} testId="edit-rule" />
      <label className="field">
        <span className="field__label">
          Importance <output>{d.importance.toFixed(2)}</output>
        </span>
        <input type="range" min={0} max={1} step={0.05} value={d.importance} onChange={(e) => set({ importance: Number(e.target.value) })} data-testid="edit-importance" />
      </label>
      <div className="field-row">
        <label className="field field--grow">
          <span className="field__label">When it happened</span>
          <input type="datetime-local" value={d.happened} onChange={(e) => set({ happened: e.target.value })} data-testid="edit-happened" />
        </label>
        <label className="field field--grow">
          <span className="field__label">True from</span>
          <input type="date" value={d.validFrom} onChange={(e) => set({ validFrom: e.target.value })} data-testid="edit-valid-from" aria-describedby={`${id}-valid`} />
        </label>
        <label className="field field--grow">
          <span className="field__label">True until</span>
          <input type="date" value={d.validTo} onChange={(e) => set({ validTo: e.target.value })} data-testid="edit-valid-to" aria-describedby={`${id}-valid`} />
        </label>
      </div>
      <p id={`${id}-valid`} className="field__hint">
        Leave “True until” empty while it is still true. A changed text counts from today unless you set “True from”; a
        new “When it happened” moves “True from” with it when they were the same.
      </p>
      <PicturePicker value={picture} onChange={setPicture} error={pictureError} onError={setPictureError} testId="edit-picture" />
      {error && (
        <p className="alert alert--error" role="alert" data-testid="edit-error" data-code={error.code}>
          {error.message}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="btn btn--primary" disabled={busy} data-testid="edit-save">
          {busy ? 'Saving…' : 'Save changes'}
        </button>
        <button type="button" className="btn btn--ghost" onClick={onDone} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
