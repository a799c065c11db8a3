// The memory open in the panel: taken from the recall's results when it is one of them, else read
// by id (a chain member, a recent memory). A memory that cannot be read closes the panel and says so.
import { useEffect, useState } from 'react';
import { services, type RecallView } from '../../services';
import type { Memory, MemoryId } from '../../core/types';
import { toastError } from '../app/report';

export interface OpenedMemory {
  memory: Memory | null;
  /** The recall result it was opened from, if it is one. */
  view: RecallView | undefined;
  /** Shows a new version of the open memory (e.g. after a tag change). */
  replace(m: Memory): void;
}

export function useOpenedMemory(openId: MemoryId | null, views: readonly RecallView[] | undefined, close: () => void): OpenedMemory {
  const [memory, setMemory] = useState<Memory | null>(null);
  const view = views?.find((v) => v.memory.id === openId);

  useEffect(() => {
    if (!openId) {
      setMemory(null);
      return;
    }
    const inResults = views?.find((v) => v.memory.id === openId)?.memory;
    if (inResults) {
      setMemory(inResults);
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
