// A modal dialog: focus moves in (to `initialFocus` or the first control), stays in (Tab wraps),
// Escape closes, and focus goes back to where it was. Full screen on a phone (keep.css).
import { useEffect, useRef, type KeyboardEvent, type ReactNode } from 'react';

const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

export interface ModalProps {
  labelledBy: string;
  onClose(): void;
  /** Escape, when it means less than closing (an editor goes back to its view); default onClose. */
  onEscape?(): void;
  children: ReactNode;
  testId?: string;
  className?: string;
}

/** Open dialogs, newest last: Escape closes the newest only. */
const open: object[] = [];

export function Modal({ labelledBy, onClose, onEscape, children, testId, className }: ModalProps) {
  const ref = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onEscape ?? onClose);
  useEffect(() => {
    closeRef.current = onEscape ?? onClose;
  });

  // Escape anywhere (focus may sit on the page when the focused button went away, e.g. Edit)
  useEffect(() => {
    const me = {};
    open.push(me);
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape' || open[open.length - 1] !== me) return;
      e.stopPropagation();
      closeRef.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      open.splice(open.indexOf(me), 1);
    };
  }, []);

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const first = ref.current?.querySelector<HTMLElement>('[data-autofocus]') ?? ref.current?.querySelector<HTMLElement>(FOCUSABLE);
    first?.focus();
    return () => {
      if (previous?.isConnected) previous.focus();
    };
  }, []);

  // focus that escapes (a click on the page behind, a programmatic focus) comes back in
  useEffect(() => {
    const onFocusIn = (e: FocusEvent) => {
      const box = ref.current;
      // a toast (Undo) stays reachable while the dialog is open
      if (box && e.target instanceof Element && !box.contains(e.target) && !e.target.closest('.toasts')) box.querySelector<HTMLElement>(FOCUSABLE)?.focus();
    };
    document.addEventListener('focusin', onFocusIn);
    return () => document.removeEventListener('focusin', onFocusIn);
  }, []);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key !== 'Tab' || !ref.current) return;
    const items = Array.from(ref.current.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => !el.closest('[hidden]'));
    if (items.length === 0) return;
    const first = items[0]!;
    const last = items[items.length - 1]!;
    if (e.shiftKey && document.activeElement === first) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };

  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div ref={ref} role="dialog" aria-modal="true" aria-labelledby={labelledBy} className={`modal ${className ?? ''}`} data-testid={testId} onKeyDown={onKeyDown}>
        {children}
      </div>
    </div>
  );
}
