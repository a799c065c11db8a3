// The command palette's actions as data (pure; the functions that run them are in actions.ts) and
// how a typed filter picks among them. Tested in commands.test.ts.

export type CommandId =
  | 'go-memories'
  | 'go-explore'
  | 'go-data'
  | 'new-memory'
  | 'search'
  | 'recall'
  | 'load-sample'
  | 'back-up'
  | 'import'
  | 'toggle-theme'
  | 'settings'
  | 'shortcuts'
  | 'guide';

export interface Command {
  id: CommandId;
  label: string;
  /** Shown beside the label: what group of things it does. */
  group: 'Go to' | 'Memories' | 'Explore' | 'Your data' | 'App';
  /** Other words a person may type for it. */
  keywords: string;
  /** Its own shortcut, if it has one (shown in the list). */
  shortcut?: string;
}

export const COMMANDS: readonly Command[] = [
  { id: 'go-memories', label: 'Go to Memories', group: 'Go to', keywords: 'list view home notes' },
  { id: 'go-explore', label: 'Go to Explore', group: 'Go to', keywords: 'graph view recall' },
  { id: 'go-data', label: 'Go to Your data', group: 'Go to', keywords: 'backup import export view' },
  { id: 'new-memory', label: 'New memory', group: 'Memories', keywords: 'add capture write note create' },
  { id: 'search', label: 'Search memories', group: 'Memories', keywords: 'find look up', shortcut: '/' },
  { id: 'recall', label: 'Recall: ask a question in Explore', group: 'Explore', keywords: 'query ask graph lateral chain' },
  { id: 'load-sample', label: 'Load the sample collection', group: 'Explore', keywords: 'example demo try data' },
  { id: 'back-up', label: 'Back up your memories', group: 'Your data', keywords: 'export download save backup' },
  { id: 'import', label: 'Bring memories in from files', group: 'Your data', keywords: 'import markdown obsidian csv bookmarks' },
  { id: 'toggle-theme', label: 'Switch theme (system, light, dark)', group: 'App', keywords: 'dark mode light colour color appearance' },
  { id: 'settings', label: 'Open settings', group: 'App', keywords: 'preferences options alerts profile thresholds' },
  { id: 'shortcuts', label: 'Show keyboard shortcuts', group: 'App', keywords: 'keys help hotkeys', shortcut: '?' },
  { id: 'guide', label: 'Show the first-run guide', group: 'App', keywords: 'tour welcome intro help' },
];

/**
 * The commands matching what was typed, best first. Every typed word must occur in the label,
 * group or keywords (case-insensitive); labels starting with the text come first, then labels
 * containing it, then the rest; ties keep the list's order. Empty text: every command.
 */
export function filterCommands(commands: readonly Command[], typed: string): Command[] {
  const q = typed.trim().toLowerCase();
  if (!q) return [...commands];
  const words = q.split(/\s+/);
  const rank = (c: Command): number => {
    const label = c.label.toLowerCase();
    if (label.startsWith(q)) return 0;
    if (label.includes(q)) return 1;
    if (words.every((w) => label.includes(w))) return 2;
    return 3;
  };
  return commands
    .map((c, i) => ({ c, i, hay: `${c.label} ${c.group} ${c.keywords}`.toLowerCase() }))
    .filter(({ hay }) => words.every((w) => hay.includes(w)))
    .sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i)
    .map(({ c }) => c);
}

/** The next active index after an arrow key, wrapping around; -1 when the list is empty. */
export function moveActive(index: number, count: number, step: 1 | -1): number {
  if (count <= 0) return -1;
  if (index < 0) return step === 1 ? 0 : count - 1;
  return (index + step + count) % count;
}
