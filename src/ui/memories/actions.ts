// What the memory lists do to memories, with the words people read afterwards. A delete moves to
// the trash and offers Undo in its toast; failures are shown through report.ts.
import type { MemoryId, MemoryStatus } from '../../core/types';
import { useUi } from '../../state/ui-store';
import { toastError } from '../app/report';
import { saveBlob } from '../data/files';
import { keepApi } from './keep-api';

export function memoriesWord(n: number): string {
  return n === 1 ? '1 memory' : `${n.toLocaleString('en')} memories`;
}

function toast(message: string, action?: { label: string; run: () => void }): void {
  useUi.getState().pushToast({ kind: action ? 'info' : 'success', message, action });
}

/** Moves memories to the trash; the toast's Undo puts exactly those back. Resolves false on failure (shown). */
export async function deleteWithUndo(ids: readonly MemoryId[], what = memoriesWord(ids.length)): Promise<boolean> {
  try {
    const receipt = await keepApi().deleteMemories([...ids]);
    toast(`Moved ${what} to the trash.`, {
      label: 'Undo',
      run: () => {
        keepApi()
          .undoDelete(receipt)
          .then(() => toast(`Put back ${what}.`), toastError);
      },
    });
    return true;
  } catch (e) {
    toastError(e);
    return false;
  }
}

export async function setStatusOf(ids: readonly MemoryId[], status: Exclude<MemoryStatus, 'archived'>): Promise<boolean> {
  try {
    if (status === 'quarantined') await keepApi().markUnsure([...ids]);
    else await keepApi().validateMemories([...ids]);
    const n = memoriesWord(ids.length);
    toast(status === 'quarantined' ? `Marked ${n} as unsure.` : `Kept ${n}: confirmed.`);
    return true;
  } catch (e) {
    toastError(e);
    return false;
  }
}

export async function discardWithUndo(ids: readonly MemoryId[]): Promise<boolean> {
  try {
    const receipt = await keepApi().discardMemories([...ids]);
    toast(`Discarded ${memoriesWord(ids.length)} (moved to the trash).`, {
      label: 'Undo',
      run: () => {
        keepApi()
          .undoDelete(receipt)
          .then(() => toast(`Put back ${memoriesWord(ids.length)} for review.`), toastError);
      },
    });
    return true;
  } catch (e) {
    toastError(e);
    return false;
  }
}

export async function restoreFromTrash(ids: readonly MemoryId[]): Promise<boolean> {
  try {
    for (const id of ids) await keepApi().restoreMemory(id);
    toast(`Restored ${memoriesWord(ids.length)}.`);
    return true;
  } catch (e) {
    toastError(e);
    return false;
  }
}

export async function addTagsTo(ids: readonly MemoryId[], tags: string[]): Promise<boolean> {
  try {
    await keepApi().tagMemories([...ids], { add: tags });
    toast(`Tagged ${memoriesWord(ids.length)} with ${tags.map((t) => `#${t}`).join(' ')}.`);
    return true;
  } catch (e) {
    toastError(e);
    return false;
  }
}

export async function exportSelected(ids: readonly MemoryId[]): Promise<boolean> {
  try {
    const f = await keepApi().exportMarkdown({ ids: [...ids] });
    saveBlob(f.blob, f.fileName);
    toast(`Exported ${memoriesWord(ids.length)} as Markdown.`);
    return true;
  } catch (e) {
    toastError(e);
    return false;
  }
}
