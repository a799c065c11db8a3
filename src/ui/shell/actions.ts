// What each command-palette action does (the list itself is commands.ts).
import { useUi, type ThemeChoice } from '../../state/ui-store';
import { logError } from '../app/report';
import { resetGuide } from '../settings/use-everyday';
import type { CommandId } from './commands';
import { focusWhenPresent, go, openGuide } from './navigate';
import { sampleJob } from './sample-job';
import { useShell } from './shell-store';

const NEXT_THEME: Record<ThemeChoice, ThemeChoice> = { system: 'light', light: 'dark', dark: 'system' };

export const SEARCH_BOX = '[data-testid="search-input"]';
export const RECALL_BOX = '#explore-q';
export const CAPTURE_BOX = '[data-testid="capture-text"]';

/** "/": the search box of the view in front (Explore's question box there, else Memories' search). */
export function focusSearch(): void {
  if (useUi.getState().view === 'graph') focusWhenPresent(RECALL_BOX);
  else {
    if (useUi.getState().view !== 'memories') go('memories');
    focusWhenPresent(SEARCH_BOX);
  }
}

export function newMemory(): void {
  if (useUi.getState().view !== 'memories') go('memories');
  useShell.getState().set({ captureOpen: true });
  focusWhenPresent(CAPTURE_BOX);
}

export function runCommand(id: CommandId): void {
  const shell = useShell.getState();
  switch (id) {
    case 'go-memories':
      return go('memories');
    case 'go-explore':
      return go('graph');
    case 'go-data':
      return go('data');
    case 'new-memory':
      return newMemory();
    case 'search':
      if (useUi.getState().view === 'graph') go('memories');
      return focusSearch();
    case 'recall':
      go('graph');
      return focusWhenPresent(RECALL_BOX);
    case 'load-sample':
      void sampleJob.start();
      go('graph'); // its card shows the progress at the top of Explore
      return focusWhenPresent('[data-testid="sample-loader"]');
    case 'back-up':
      go('data');
      return focusWhenPresent('[data-testid="data-backup"] button');
    case 'import':
      go('data');
      return focusWhenPresent('[data-testid="data-import"] button');
    case 'toggle-theme': {
      const ui = useUi.getState();
      return ui.setTheme(NEXT_THEME[ui.theme]);
    }
    case 'settings':
      return shell.set({ settingsOpen: true });
    case 'shortcuts':
      return shell.set({ shortcutsOpen: true });
    case 'guide':
      resetGuide().then(openGuide, (e: unknown) => logError(e));
      return;
  }
}
