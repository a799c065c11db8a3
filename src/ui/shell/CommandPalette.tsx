// The command palette (Ctrl/Cmd+K): every action by name. A modal dialog holding a combobox (the
// filter) that owns a listbox of actions; arrows move the active one (aria-activedescendant, so
// focus stays in the box), Enter runs it, Escape closes. Focus goes back where it was, unless the
// action moved it on purpose.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { ModalDialog } from '../components/ModalDialog';
import { COMMANDS, filterCommands, moveActive, type CommandId } from './commands';

export interface CommandPaletteProps {
  onClose: () => void;
  onRun: (id: CommandId) => void;
}

export function CommandPalette({ onClose, onRun }: CommandPaletteProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = useId();
  const [typed, setTyped] = useState('');
  const [active, setActive] = useState(0);
  const shown = useMemo(() => filterCommands(COMMANDS, typed), [typed]);
  const current = active >= 0 && active < shown.length ? shown[active] : undefined;
  const optionId = (id: CommandId) => `${listId}-${id}`;

  useEffect(() => inputRef.current?.focus(), []);

  useEffect(() => {
    if (current) document.getElementById(optionId(current.id))?.scrollIntoView?.({ block: 'nearest' });
    // optionId is derived from listId, fixed for the palette's life
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [current]);

  const run = (id: CommandId) => {
    onClose();
    onRun(id);
  };

  return (
    <ModalDialog className="palette" label="Command palette" testId="command-palette" onClose={onClose} closeOnBackdrop>
      <div className="palette__box">
        <input
          ref={inputRef}
          className="palette__input"
          type="text"
          role="combobox"
          aria-label="Type an action"
          aria-expanded="true"
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={current ? optionId(current.id) : undefined}
          placeholder="Type an action, e.g. “new memory”, “theme”, “back up”"
          value={typed}
          data-testid="palette-input"
          autoComplete="off"
          spellCheck={false}
          onChange={(e) => {
            setTyped(e.target.value);
            setActive(0);
          }}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
              e.preventDefault();
              setActive((i) => moveActive(i, shown.length, e.key === 'ArrowDown' ? 1 : -1));
            } else if (e.key === 'Home' && shown.length) {
              e.preventDefault();
              setActive(0);
            } else if (e.key === 'End' && shown.length) {
              e.preventDefault();
              setActive(shown.length - 1);
            } else if (e.key === 'Enter') {
              e.preventDefault();
              if (current) run(current.id);
            }
          }}
        />
        <ul id={listId} className="palette__list" role="listbox" aria-label="Actions" data-testid="palette-list">
          {shown.map((c, i) => (
            <li
              key={c.id}
              id={optionId(c.id)}
              role="option"
              aria-selected={i === active}
              className="palette__option"
              data-testid={`palette-option-${c.id}`}
              onMouseMove={() => setActive(i)}
              onClick={() => run(c.id)}
            >
              <span className="palette__label">{c.label}</span>
              <span className="palette__group">{c.group}</span>
              {c.shortcut && <kbd className="palette__kbd">{c.shortcut}</kbd>}
            </li>
          ))}
        </ul>
        {shown.length === 0 && (
          <p className="palette__none" role="status" data-testid="palette-none">
            No action matches “{typed.trim()}”.
          </p>
        )}
        <p className="palette__foot" aria-hidden="true">
          <kbd>↑</kbd> <kbd>↓</kbd> to move · <kbd>Enter</kbd> to run · <kbd>Esc</kbd> to close
        </p>
      </div>
    </ModalDialog>
  );
}
