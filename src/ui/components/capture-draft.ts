// The new-memory form's draft, kept outside the form: switching to Explore or Your data and back
// (the form unmounts) used to empty it, losing what the person had typed. Transient UI state (a
// zustand store, like src/state): it lives as long as the tab; a save empties it.
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
