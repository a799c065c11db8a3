// Transient state of the app shell (zustand): which of its overlays is open (command palette,
// shortcuts, settings), the phone menu, the phone's folded capture form, the guide asked for. Nothing persisted.
import { create } from 'zustand';

export interface ShellState {
  paletteOpen: boolean;
  shortcutsOpen: boolean;
  settingsOpen: boolean;
  /** Phones: the views menu under the header is unfolded. */
  menuOpen: boolean;
  /** Phones: the capture form is unfolded ("New memory"); wider screens always show it. */
  captureOpen: boolean;
  /** The first-run guide was asked for again (Settings, the palette): shown unfolded. */
  guideOpen: boolean;
  set(p: Partial<Omit<ShellState, 'set'>>): void;
}

export const useShell = create<ShellState>((set) => ({
  paletteOpen: false,
  shortcutsOpen: false,
  settingsOpen: false,
  menuOpen: false,
  captureOpen: false,
  guideOpen: false,
  set: (p) => set(p),
}));
