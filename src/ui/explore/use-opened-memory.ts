// The memory open in the panel: taken from the recall's results when it is one of them, else read
// by id (a chain member, a recent memory). A memory that cannot be read closes the panel and says so.
// Opening a result deeper search found (issue 11, seed 003 F) goes through services().openMemory,
// which records the access and, for a deep hit of a recent recall, trains the first search once;
// other results open from the recall's copy with no write, as before.
import { useEffect, useRef, useState } from 'react';
import { services, type RecallView } from '../../services';
import type { Memory, MemoryId } from '../../core/types';
import { logError, toastError } from '../app/report';

export interface OpenedMemory {
  memory: Memory | null;
  /** The recall result it was opened from, if it is one. */
  view: RecallView | undefined;
  /** Shows a new version of the open memory (e.g. after a tag change). */
  replace(m: Memory): void;
}

/** A result deeper search added (a pool way, not a first result): opening it is a training signal. */
export function foundByDeepSearch(v: RecallView): boolean {
  return (v.result.deep?.via.length ?? 0) > 0;
}

export function useOpenedMemory(openId: MemoryId | null, views: readonly RecallView[] | undefined, close: () => void): OpenedMemory {
  const [memory, setMemory] = useState<Memory | null>(null);
  const view = views?.find((v) => v.memory.id === openId);
  const told = useRef<MemoryId | null>(null); // the deep hit last reported opened (once per opening, not per new results)

  useEffect(() => {
    if (!openId) {
      told.current = null;
      setMemory(null);
      return;
    }
    const inView = views?.find((v) => v.memory.id === openId);
    if (inView) {
      setMemory(inView.memory);
      if (foundByDeepSearch(inView) && told.current !== openId) {
        told.current = openId;
        services().openMemory(openId).catch(logError);
      }
      return;
    }
    let live = true;
    services().getMemory(openId).then(
      (m) => live && setMemory(m),
      (e: unknown) => {
        if (!live) return;
        close();
        toastError(e);
      },
    );
    return () => {
      live = false;
    };
    // `close` is a store action (stable); the effect follows the id and the results only
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [openId, views]);

  return { memory: memory && memory.id === openId ? memory : null, view, replace: setMemory };
}
