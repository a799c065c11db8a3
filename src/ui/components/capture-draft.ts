// The new-memory form's draft, kept outside the form: switching to Explore or Your data and back
// (the form unmounts) used to empty it, losing what the person had typed. Transient UI state (a
// zustand store, like src/state): it lives as long as the tab; a save empties it. Closing or
// reloading the tab with an unsaved draft (or an unsaved edit of a memory) asks first (the browser's "Leave site?"): a reload from
// the update prompt or a closed tab used to drop it unsaid.
import { useEffect } from 'react';
import { create } from 'zustand';
import { emptyPicture, type PictureDraft } from '../memories/pictures';

export interface CaptureDraft {
  text: string;
  tags: string;
  importance: number;
  source: string;
  /** "When did this happen?" as the date input's value ('' = now). */
  happened: string;
  picture: PictureDraft;
}

export const EMPTY_DRAFT: CaptureDraft = { text: '', tags: '', importance: 0.5, source: '', happened: '', picture: emptyPicture };

export const useCaptureDraft = create<CaptureDraft & { update(p: Partial<CaptureDraft>): void; clear(): void }>((set) => ({
  ...EMPTY_DRAFT,
  update: (p) => set(p),
  clear: () => set(EMPTY_DRAFT),
}));

/** Something typed or attached in the new-memory form and not saved yet. */
export function hasUnsavedDraft(d: CaptureDraft = useCaptureDraft.getState()): boolean {
  return d.text.trim() !== '' || d.tags.trim() !== '' || d.source.trim() !== '' || d.picture.prepared !== null || d.picture.caption.trim() !== '';
}

let unsavedEdit = false;
/** The opened memory's editor holds changes not saved yet (MemoryDialog says so as they come and go). */
export function setUnsavedEdit(dirty: boolean): void {
  unsavedEdit = dirty;
}

/** While the page is open: leaving it (close, reload, another address) with an unsaved draft or edit asks first. */
export function useLeaveGuard(): void {
  useEffect(() => {
    const onLeave = (e: BeforeUnloadEvent) => {
      if (!hasUnsavedDraft() && !unsavedEdit) return;
      e.preventDefault();
      e.returnValue = ''; // older browsers ask only when this is set
    };
    window.addEventListener('beforeunload', onLeave);
    return () => window.removeEventListener('beforeunload', onLeave);
  }, []);
}
