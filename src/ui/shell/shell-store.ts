// Transient state of the app shell (zustand): which of its overlays is open (command palette,
// shortcuts, settings), the phone menu, and the phone's folded capture form. Nothing persisted.
import { create } from 'zustand';

export interface ShellState {
  paletteOpen: boolean;
  shortcutsOpen: boolean;
  settingsOpen: boolean;
  /** Phones: the views menu under the header is unfolded. */
  menuOpen: boolean;
  /** Phones: the capture form is unfolded ("New memory"); wider screens always show it. */
  captureOpen: boolean;
  set(p: Partial<Omit<ShellState, 'set'>>): void;
}

export const useShell = create<ShellState>((set) => ({
  paletteOpen: false,
  shortcutsOpen: false,
  settingsOpen: false,
  menuOpen: false,
  captureOpen: false,
  set: (p) => set(p),
}));
