// Pictures on memories in the views: the picker of the capture form and the editor (choose a file
// or paste one; checked and given its thumbnail at once, with a clear message when it cannot be
// kept; a caption that says what it shows), and the picture of an opened memory (alt = caption).
import { useEffect, useId, useRef, useState, type ClipboardEvent } from 'react';
import { imageRefs, MAX_CAPTION_LENGTH } from '../../core/images';
import type { MediaRef } from '../../core/types';
import { errorMessage } from '../app/format';
import { keepApi, type PreparedImage } from './keep-api';
import './pictures.css';

/** An object URL for a Blob while the component shows it, revoked afterwards. */
export function useObjectUrl(blob: Blob | null | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!blob) {
      setUrl(null);
      return;
    }
    const u = URL.createObjectURL(blob);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [blob]);
  return url;
}

/** The first picture file of a paste, if any (a screenshot, an image copied from a page). */
export function pastedFile(e: ClipboardEvent): File | null {
  const files = e.clipboardData?.files;
  return files && files.length > 0 ? files[0] : null;
}

/** What the picker holds: nothing, the stored picture (editor), or a new prepared one. */
export interface PictureDraft {
  prepared: PreparedImage | null;
  /** The stored picture's id when it is kept (the editor), else null. */
  keptId: string | null;
  caption: string;
}

export const emptyPicture: PictureDraft = { prepared: null, keptId: null, caption: '' };

/** The picture part of a memory's media as the editor starts with it. */
export function pictureOf(media: readonly MediaRef[] | undefined): PictureDraft {
  const [ref] = imageRefs(media);
  return ref ? { prepared: null, keptId: ref.imageId, caption: ref.caption ?? '' } : emptyPicture;
}

/** Prepares a file for the picker: the draft with it, or the message to show (nothing kept). */
export async function preparePicture(file: File, draft: PictureDraft): Promise<{ draft: PictureDraft } | { error: string }> {
  try {
    const prepared = await keepApi().prepareImage(file, file.name || 'The pasted file');
    return { draft: { ...draft, prepared, keptId: null } };
  } catch (e) {
    return { error: errorMessage(e) };
  }
}

interface PickerProps {
  value: PictureDraft;
  onChange(next: PictureDraft): void;
  /** A message about the last file (it could not be kept), or null. */
  error: string | null;
  onError(message: string | null): void;
  testId: string;
}

/** Attach a picture (or paste one into the form), see its thumbnail, type its caption, remove it. */
export function PicturePicker({ value, onChange, error, onError, testId }: PickerProps) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);
  const thumbUrl = useObjectUrl(value.prepared?.thumb);
  const keptUrl = useStoredThumb(value.prepared ? null : value.keptId);
  const shown = thumbUrl ?? keptUrl;
  const has = !!value.prepared || !!value.keptId;

  async function take(file: File | undefined) {
    if (!file) return;
    setBusy(true);
    onError(null);
    const out = await preparePicture(file, value);
    setBusy(false);
    if ('error' in out) onError(out.error);
    else onChange(out.draft);
  }

  return (
    <div className="picture-picker" data-testid={testId} data-state={busy ? 'reading' : has ? 'attached' : 'empty'}>
      <div className="picture-picker__row">
        {shown && <img className="picture-picker__thumb" src={shown} alt={value.caption.trim() || 'The attached picture'} data-testid={`${testId}-thumb`} />}
        <div className="picture-picker__buttons">
          <input
            ref={input}
            id={`${id}-file`}
            type="file"
            accept="image/png,image/jpeg,image/gif,image/webp"
            hidden
            aria-hidden="true"
            tabIndex={-1}
            onChange={(e) => {
              void take(e.target.files?.[0]);
              e.target.value = ''; // the same file can be chosen again after a fix
            }}
            data-testid={`${testId}-file`}
          />
          <button type="button" className="btn btn--secondary btn--small" onClick={() => input.current?.click()} disabled={busy} aria-describedby={`${id}-hint`}>
            {busy ? 'Reading the picture…' : has ? 'Replace picture' : 'Attach a picture'}
          </button>
          {has && (
            <button type="button" className="btn btn--ghost btn--small" onClick={() => (onError(null), onChange(emptyPicture))} data-testid={`${testId}-remove`}>
              Remove picture
            </button>
          )}
        </div>
      </div>
      <p id={`${id}-hint`} className="field__hint">
        PNG, JPEG, GIF or WebP up to 8 MB. You can also paste a picture into the form.
      </p>
      {has && (
        <label className="field">
          <span className="field__label">Caption: what the picture shows</span>
          <input
            value={value.caption}
            maxLength={MAX_CAPTION_LENGTH}
            onChange={(e) => onChange({ ...value, caption: e.target.value })}
            placeholder="The red front door after painting"
            aria-describedby={`${id}-caption`}
            data-testid={`${testId}-caption`}
          />
          <span id={`${id}-caption`} className="field__hint">
            Read aloud in place of the picture, and found when you search for it.
          </span>
        </label>
      )}
      {error && (
        <p className="alert alert--error" role="alert" data-testid={`${testId}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A stored picture's Blob (`thumb` or the full `data`), read once per id. */
function useStoredBlob(id: string | null, which: 'thumb' | 'data'): Blob | null {
  const [state, setState] = useState<{ id: string; blob: Blob | null } | null>(null);
  useEffect(() => {
    if (!id) return;
    let live = true;
    keepApi()
      .getImages([id])
      .then(
        ([row]) => live && setState({ id, blob: row ? row[which] : null }),
        () => live && setState({ id, blob: null }),
      );
    return () => {
      live = false;
    };
  }, [id, which]);
  return state && state.id === id ? state.blob : null;
}

function useStoredThumb(id: string | null): string | null {
  return useObjectUrl(useStoredBlob(id, 'thumb'));
}

/** A small picture beside a memory in a list of results (search), alt = its caption; nothing without a picture. */
export function MemoryThumb({ media }: { media: readonly MediaRef[] | undefined }) {
  const [ref] = imageRefs(media);
  const url = useStoredThumb(ref?.imageId ?? null);
  if (!ref) return null;
  return url ? (
    <img className="memory-thumb" src={url} alt={ref.caption || 'A picture'} data-testid="result-thumb" />
  ) : (
    <span className="memory-thumb memory-thumb--loading" aria-hidden="true" />
  );
}

/** The opened memory's picture, with its caption as alt text and as the visible caption. */
export function MemoryPicture({ media }: { media: readonly MediaRef[] | undefined }) {
  const [ref] = imageRefs(media);
  const blob = useStoredBlob(ref?.imageId ?? null, 'data');
  const url = useObjectUrl(blob);
  if (!ref) return null;
  return (
    <figure className="memory-picture" data-testid="memory-picture" data-loaded={url ? 'true' : 'false'}>
      {url ? <img src={url} alt={ref.caption ?? ''} data-testid="memory-picture-img" /> : <div className="memory-picture__placeholder" aria-hidden="true" />}
      {ref.caption && <figcaption>{ref.caption}</figcaption>}
    </figure>
  );
}
