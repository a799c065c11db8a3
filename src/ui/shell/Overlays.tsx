// The shell's overlays and global keys: the command palette, the shortcuts help and Settings,
// opened from the header, the palette, or the keyboard (Ctrl/Cmd+K, "/", "?": keys.ts).
import { useEffect } from 'react';
import { SettingsDialog } from '../settings/SettingsDialog';
import { focusSearch, runCommand } from './actions';
import { CommandPalette } from './CommandPalette';
import { shortcutOf } from './keys';
import { ShortcutsDialog } from './ShortcutsDialog';
import { useShell } from './shell-store';

/** Keys that work anywhere in the app (never while another dialog is open, except Ctrl/Cmd+K
 *  to close the palette again). */
function useGlobalKeys(): void {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const s = shortcutOf({ key: e.key, ctrlKey: e.ctrlKey, metaKey: e.metaKey, altKey: e.altKey, target: e.target as HTMLElement | null });
      if (!s) return;
      const shell = useShell.getState();
      if (s === 'palette' && shell.paletteOpen) {
        e.preventDefault();
        shell.set({ paletteOpen: false });
        return;
      }
      if (document.querySelector('dialog[open]')) return; // a dialog has the person's attention
      e.preventDefault();
      if (s === 'palette') shell.set({ paletteOpen: true, menuOpen: false });
      else if (s === 'help') shell.set({ shortcutsOpen: true });
      else focusSearch();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}

export function Overlays() {
  const { paletteOpen, shortcutsOpen, settingsOpen, set } = useShell();
  useGlobalKeys();
  return (
    <>
      {paletteOpen && <CommandPalette onClose={() => set({ paletteOpen: false })} onRun={runCommand} />}
      {shortcutsOpen && <ShortcutsDialog onClose={() => set({ shortcutsOpen: false })} />}
      {settingsOpen && <SettingsDialog onClose={() => set({ settingsOpen: false })} />}
    </>
  );
}
