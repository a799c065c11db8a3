// A native <dialog> opened as a modal when it mounts. Escape (the dialog's cancel event) calls
// `onClose`, and so does a click on the backdrop when `closeOnBackdrop` is set. When it unmounts,
// focus goes back where the person was, unless the action that closed it put focus somewhere
// on purpose. Settings, the shortcuts and the command palette share it.
import { useEffect, useRef, type ReactNode } from 'react';

export interface ModalDialogProps {
  className: string;
  /** The id of the visible title; or `label` when there is none. */
  labelledBy?: string;
  label?: string;
  testId: string;
  onClose: () => void;
  closeOnBackdrop?: boolean;
  children: ReactNode;
}

export function ModalDialog({ className, labelledBy, label, testId, onClose, closeOnBackdrop = false, children }: ModalDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    const d = ref.current;
    if (d && !d.open) d.showModal?.();
    return () => {
      if (before && (document.activeElement === document.body || document.activeElement === null)) before.focus?.();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={className}
      aria-labelledby={labelledBy}
      aria-label={label}
      data-testid={testId}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
      onClick={
        closeOnBackdrop
          ? (e) => {
              if (e.target === ref.current) onClose(); // a click on the backdrop
            }
          : undefined
      }
    >
      {children}
    </dialog>
  );
}
