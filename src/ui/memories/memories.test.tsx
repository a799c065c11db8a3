// @vitest-environment jsdom
// The memory lists against a fake of the services' keep API: filters reach browseMemories, a
// tag chip filters, a bulk delete offers Undo that puts back exactly what it moved, Delete all
// waits for the typed words and offers Undo, the editor sends only what changed.
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Memory } from '../../core/types';
import { useUi } from '../../state/ui-store';
import { Toasts } from '../components/Toasts';
import { LeaveGuarded, leaveAsks } from '../../testing/leave-guard';
import { setKeepApiForTests, type BrowseQuery, type DeleteReceipt, type KeepApi, type MemoryHeader } from './keep-api';
import { useKeep } from './keep-store';
import { MemoryBrowser } from './MemoryBrowser';
import { CleanUp } from './CleanUp';
import { TrashList } from './TrashReview';
import { HistoryList } from './HistoryList';
import { MemoryDialog } from './MemoryDialog';
import { draftOf, patchOf } from './MemoryEditor';

function header(i: number, tags: string[], over: Partial<MemoryHeader> = {}): MemoryHeader {
  const t = Date.UTC(2026, 0, 1 + i);
  return { id: `m${i}`, title: `memory ${i}`, length: 10, createdAt: t, updatedAt: t, importance: 0.5, tags, status: 'active', deletedAt: null, validFrom: t, validTo: null, sample: false, ...over };
}

let rows: MemoryHeader[];
let calls: { name: string; args: unknown[] }[];
const listeners = new Set<() => void>();
let version = 0;
const tick = () => {
  version++;
  listeners.forEach((l) => l());
};

function matches(m: MemoryHeader, q: BrowseQuery): boolean {
  if (q.status === 'trashed') return m.deletedAt !== null;
  if (m.deletedAt !== null) return false;
  if (q.tags && !q.tags.every((t) => m.tags.includes(t))) return false;
  if (q.sample !== undefined && m.sample !== q.sample) return false;
  return true;
}

const fake = {
  async browseMemories(q: BrowseQuery, w: { offset?: number; limit?: number } = {}) {
    calls.push({ name: 'browse', args: [q, w] });
    const all = rows.filter((m) => matches(m, q));
    const offset = w.offset ?? 0;
    return { total: all.length, offset, items: all.slice(offset, offset + (w.limit ?? 100)) };
  },
  async tagCounts(q: BrowseQuery = {}) {
    const n = new Map<string, number>();
    for (const m of rows.filter((r) => matches(r, q))) for (const t of m.tags) n.set(t, (n.get(t) ?? 0) + 1);
    return [...n].map(([tag, count]) => ({ tag, count })).sort((a, b) => b.count - a.count);
  },
  changeVersion: () => version,
  subscribeChanges(fn: () => void) {
    listeners.add(fn);
    return () => listeners.delete(fn);
  },
  async deleteMemories(ids: string[]): Promise<DeleteReceipt> {
    calls.push({ name: 'delete', args: [ids] });
    rows = rows.map((m) => (ids.includes(m.id) ? { ...m, deletedAt: 5 } : m));
    tick();
    return { ids, at: 5 };
  },
  async undoDelete(r: DeleteReceipt) {
    calls.push({ name: 'undo', args: [r] });
    rows = rows.map((m) => (r.ids.includes(m.id) ? { ...m, deletedAt: null } : m));
    tick();
    return r.ids.length;
  },
  async emptyTrash() {
    calls.push({ name: 'emptyTrash', args: [] });
    const n = rows.filter((m) => m.deletedAt !== null).length;
    rows = rows.filter((m) => m.deletedAt === null);
    tick();
    return n;
  },
  async purgeMemories(ids: string[]) {
    calls.push({ name: 'purge', args: [ids] });
    rows = rows.filter((m) => !ids.includes(m.id));
    tick();
    return ids.length;
  },
  async memoryHistory(id: string) {
    const t = Date.UTC(2026, 0, 1);
    const base: Memory = {
      id, text: 'brakes', tags: ['car'], suggestedTags: [], importance: 0.9, createdAt: t, updatedAt: t + 2, validFrom: t + 2, validTo: null,
      sessionId: 's', status: 'active', deletedAt: null, embedTruncated: false, source: 'garage bill',
    };
    const earlier: Memory = { ...base, id: 'old', text: 'engine', tags: ['car', 'errands'], importance: 0.5, updatedAt: t, validFrom: t, supersededBy: id };
    delete (earlier as { source?: string }).source;
    return [
      { memory: base, current: true, recordedAt: t + 2, supersededAt: null },
      { memory: earlier, current: false, recordedAt: t, supersededAt: Date.UTC(2026, 0, 2) },
    ];
  },
  async openMemory(id: string) {
    const t = Date.UTC(2026, 0, 1);
    return { id, text: 'Fence paint: sage green', tags: ['garden'], suggestedTags: [], importance: 0.5, createdAt: t, updatedAt: t, validFrom: t, validTo: null, sessionId: 's', status: 'active', deletedAt: null, embedTruncated: false };
  },
  async updateMemory(id: string, patch: unknown) {
    calls.push({ name: 'update', args: [id, patch] });
    return {};
  },
  async trashAll(): Promise<DeleteReceipt> {
    const ids = rows.filter((m) => m.deletedAt === null).map((m) => m.id);
    calls.push({ name: 'trashAll', args: [] });
    rows = rows.map((m) => (ids.includes(m.id) ? { ...m, deletedAt: 7 } : m));
    tick();
    return { ids, at: 7 };
  },
} as unknown as KeepApi;

beforeAll(() => {
  // jsdom lays nothing out: the list's scroll box reports the height of ten rows
  Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
    configurable: true,
    get(this: HTMLElement) {
      return this.classList.contains('rows') ? 760 : 0;
    },
  });
});

beforeEach(() => {
  rows = [header(1, ['garden', 'roses']), header(2, ['garden']), header(3, ['work'])];
  calls = [];
  listeners.clear();
  setKeepApiForTests(fake);
  useKeep.setState({ filters: {}, selected: new Set(), openId: null });
  useUi.setState({ toasts: [] });
});
afterEach(() => {
  cleanup();
  setKeepApiForTests(null);
});

describe('MemoryBrowser', () => {
  it('shows the count, the rows and the tags with their counts; a tag chip filters by that tag', async () => {
    render(<MemoryBrowser />);
    await waitFor(() => expect(screen.getByTestId('memory-count').textContent).toBe('3'));
    expect(screen.getAllByTestId('memory-row-open').map((b) => b.textContent)).toEqual(['memory 1', 'memory 2', 'memory 3']);
    const chips = screen.getAllByTestId('tag-chip');
    expect(chips.map((c) => c.textContent)).toEqual(['#garden 2', '#roses 1', '#work 1']);
    fireEvent.click(chips[0]!);
    await waitFor(() => expect(screen.getByTestId('memory-count').textContent).toBe('2'));
    expect(calls.filter((c) => c.name === 'browse').at(-1)!.args[0]).toEqual({ tags: ['garden'] });
    expect(screen.getByRole('button', { name: /#garden/ }).getAttribute('aria-pressed')).toBe('true');
  });

  it('an empty list after a delete says where the memories went, and leads to the trash', async () => {
    rows = rows.map((m) => ({ ...m, deletedAt: 9 }));
    render(<MemoryBrowser />);
    const empty = await screen.findByTestId('memories-empty');
    await waitFor(() => expect(empty.textContent).toBe('Nothing here: 3 memories are in the trash, where you can restore them for 30 days. Open the trash'));
    fireEvent.click(within(empty).getByRole('button', { name: 'Open the trash' }));
    expect(useUi.getState().view).toBe('trash');
    cleanup();
    rows = [];
    render(<MemoryBrowser />);
    await waitFor(() => expect(screen.getByTestId('memories-empty').textContent).toBe('Nothing here yet. Write your first memory above; it never leaves this device.'));
  });

  it('deletes the selected memories to the trash, and Undo puts back exactly those', async () => {
    render(
      <>
        <MemoryBrowser />
        <Toasts />
      </>,
    );
    await waitFor(() => expect(screen.getAllByTestId('memory-item')).toHaveLength(3));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select: memory 1' }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select: memory 3' }));
    const bar = screen.getByTestId('bulk-bar');
    expect(within(bar).getByTestId('bulk-count').textContent).toBe('2 memories selected');
    fireEvent.click(within(bar).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.getByTestId('memory-count').textContent).toBe('1'));
    expect(calls.find((c) => c.name === 'delete')!.args[0]).toEqual(['m1', 'm3']);
    const toast = screen.getByTestId('toast');
    expect(toast.textContent).toContain('Moved 2 memories to the trash.');
    fireEvent.click(within(toast).getByRole('button', { name: 'Undo' }));
    await waitFor(() => expect(screen.getByTestId('memory-count').textContent).toBe('3'));
    expect(calls.find((c) => c.name === 'undo')!.args[0]).toEqual({ ids: ['m1', 'm3'], at: 5 });
  });
});

describe('Trash and clearing out', () => {
  it('each memory in the trash says the day it is removed for good (30 days after its delete)', async () => {
    rows[1] = { ...rows[1]!, deletedAt: Date.UTC(2026, 0, 10, 12) }; // noon, so the day is the same in any time zone within 11 hours
    render(<TrashList headingId="t" />);
    await waitFor(() => expect(screen.getByTestId('trash-count').textContent).toBe('1'));
    expect(screen.getByTestId('row-purge').textContent).toBe('kept until Feb 9, 2026'); // Jan 10 + 30 days
  });

  it('Empty trash asks first, then removes the trash for good', async () => {
    rows[1] = { ...rows[1]!, deletedAt: 9 };
    render(<TrashList headingId="t" />);
    await waitFor(() => expect(screen.getByTestId('trash-count').textContent).toBe('1'));
    fireEvent.click(screen.getByRole('button', { name: 'Empty trash' }));
    const dialog = screen.getByRole('dialog', { name: 'Empty the trash?' });
    expect(dialog.textContent).toContain('1 memory will be removed for good.');
    expect(calls.some((c) => c.name === 'emptyTrash')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Empty trash' }));
    await waitFor(() => expect(screen.getByTestId('trash-empty')).toBeTruthy());
    expect(calls.filter((c) => c.name === 'emptyTrash')).toHaveLength(1);
  });

  it('says "This moves" with one button, "Both move" only beside the sample\'s', async () => {
    const { unmount } = render(<CleanUp />);
    await screen.findByRole('button', { name: 'Delete all memories' });
    expect(screen.queryByTestId('remove-sample')).toBeNull();
    expect(screen.getByTestId('cleanup-hint').textContent).toBe('This moves memories to the trash, where you can restore them for 30 days.');
    unmount();
    rows = [...rows, header(4, [], { sample: true })];
    render(<CleanUp />);
    await screen.findByRole('button', { name: 'Remove sample collection (1 memory)' });
    expect(screen.getByTestId('cleanup-hint').textContent).toBe('Both move memories to the trash, where you can restore them for 30 days.');
  });

  it('Delete selected for good asks first, then removes only the selected memory', async () => {
    rows[0] = { ...rows[0]!, deletedAt: 9 };
    rows[1] = { ...rows[1]!, deletedAt: 9 };
    render(<TrashList headingId="t" />);
    await waitFor(() => expect(screen.getByTestId('trash-count').textContent).toBe('2'));
    expect(screen.queryByRole('button', { name: 'Delete selected for good' })).toBeNull(); // nothing selected yet
    fireEvent.click(within(screen.getAllByTestId('memory-item').find((r) => r.textContent?.includes('memory 2'))!).getByRole('checkbox'));
    fireEvent.click(screen.getByRole('button', { name: 'Delete selected for good' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete 1 memory for good?' });
    expect(dialog.textContent).toContain('The rest of the trash stays.');
    expect(calls.some((c) => c.name === 'purge')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete for good' }));
    await waitFor(() => expect(screen.getByTestId('trash-count').textContent).toBe('1'));
    expect(calls.filter((c) => c.name === 'purge').map((c) => c.args)).toEqual([[['m2']]]);
    expect(rows.map((m) => m.id)).toEqual(['m1', 'm3']);
  });

  it('Delete all waits until the person types "delete all"; its Undo puts back every memory it moved', async () => {
    rows = [...rows, header(4, [], { deletedAt: 3 })]; // already in the trash: not part of the delete
    render(
      <>
        <CleanUp />
        <Toasts />
      </>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Delete all memories' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete all memories?' });
    const yes = within(dialog).getByRole('button', { name: 'Delete all memories' }) as HTMLButtonElement;
    expect(yes.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/Type delete all to confirm/), { target: { value: 'delete' } });
    expect(yes.disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText(/Type delete all to confirm/), { target: { value: ' Delete All ' } });
    expect(yes.disabled).toBe(false);
    await act(async () => fireEvent.click(yes));
    expect(calls.filter((c) => c.name === 'trashAll')).toHaveLength(1);
    const toast = await screen.findByTestId('toast');
    expect(toast.textContent).toContain('Moved all 3 memories to the trash.');
    await act(async () => fireEvent.click(within(toast).getByRole('button', { name: 'Undo' })));
    expect(calls.find((c) => c.name === 'undo')!.args[0]).toEqual({ ids: ['m1', 'm2', 'm3'], at: 7 });
    expect(rows.map((m) => m.deletedAt)).toEqual([null, null, null, 3]);
    await waitFor(() => expect(screen.getAllByTestId('toast').some((t) => t.textContent?.includes('Put back all 3 memories.'))).toBe(true));
  });
});

describe('the opened memory, being edited', () => {
  const escape = () => act(() => void fireEvent.keyDown(document, { key: 'Escape' }));
  it('asks before Escape throws away unsaved changes; Cancel keeps editing; the ✕ asks too, and its Discard closes', async () => {
    useKeep.setState({ openId: 'cur', editing: true });
    render(
      <>
        <MemoryDialog />
        <LeaveGuarded />
      </>,
    );
    const text = (await screen.findByRole('textbox', { name: 'Text' })) as HTMLTextAreaElement;
    expect(leaveAsks()).toBe(false); // nothing changed yet
    fireEvent.change(text, { target: { value: 'Fence paint: sage green, two coats' } });
    expect(leaveAsks()).toBe(true); // a reload or a closed tab would drop the change: the browser asks
    escape();
    const ask = screen.getByRole('dialog', { name: 'Discard your changes?' });
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog', { name: 'Discard your changes?' })).toBeNull();
    expect((screen.getByRole('textbox', { name: 'Text' }) as HTMLTextAreaElement).value).toBe('Fence paint: sage green, two coats');
    expect(useKeep.getState().openId).toBe('cur');
    fireEvent.click(screen.getByTestId('memory-close')); // the ✕ asks too
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Discard your changes?' })).getByRole('button', { name: 'Discard changes' }));
    expect(useKeep.getState().openId).toBeNull();
    expect(calls.some((c) => c.name === 'update')).toBe(false);
    expect(leaveAsks()).toBe(false); // discarded: nothing left to lose
  });

  it('"A rule to keep in mind" in the editor makes the memory a rule (the constraint tag, issue 11), saved as a tag change', async () => {
    useKeep.setState({ openId: 'cur', editing: true });
    render(<MemoryDialog />);
    const rule = (await screen.findByRole('checkbox', { name: 'A rule to keep in mind' })) as HTMLInputElement;
    expect(rule.checked).toBe(false);
    fireEvent.click(rule);
    expect((screen.getByTestId('edit-tags') as HTMLInputElement).value).toBe('garden, constraint');
    fireEvent.click(screen.getByTestId('edit-save'));
    await waitFor(() => expect(calls.find((c) => c.name === 'update')?.args).toEqual(['cur', { tags: ['garden', 'constraint'] }]));
  });

  it('Escape with nothing changed goes back to the memory, not out of it; Escape again closes it', async () => {
    useKeep.setState({ openId: 'cur', editing: true });
    render(<MemoryDialog />);
    await screen.findByRole('textbox', { name: 'Text' });
    escape();
    expect(screen.queryByRole('dialog', { name: 'Discard your changes?' })).toBeNull();
    expect(useKeep.getState().openId).toBe('cur');
    expect(useKeep.getState().editing).toBe(false);
    expect(screen.queryByRole('textbox', { name: 'Text' })).toBeNull();
    expect(screen.getByTestId('memory-edit')).toBeTruthy(); // the memory's view, with its Edit button
    escape();
    expect(useKeep.getState().openId).toBeNull();
  });

  it('Escape over changes asks; Discard goes back to the memory as it was, still open', async () => {
    useKeep.setState({ openId: 'cur', editing: true });
    render(
      <>
        <MemoryDialog />
        <LeaveGuarded />
      </>,
    );
    const text = await screen.findByRole('textbox', { name: 'Text' });
    fireEvent.change(text, { target: { value: 'Fence paint: plum purple, two coats' } });
    escape();
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Discard your changes?' })).getByRole('button', { name: 'Discard changes' }));
    expect(useKeep.getState().openId).toBe('cur');
    expect(useKeep.getState().editing).toBe(false);
    expect(screen.getByTestId('memory-view-text').textContent).not.toContain('plum');
    expect(calls.some((c) => c.name === 'update')).toBe(false);
    expect(leaveAsks()).toBe(false);
  });
});

describe('History', () => {
  it('brings back an earlier version as a new edit of the memory: its text, tags, importance, source (none) and picture (none)', async () => {
    render(<Toasts />);
    render(<HistoryList id="cur" shownId="cur" />);
    const back = await screen.findAllByRole('button', { name: 'Bring back this version' });
    expect(back).toHaveLength(1); // the earlier one only, not the current
    await act(async () => fireEvent.click(back[0]!));
    const update = calls.filter((c) => c.name === 'update');
    expect(update).toHaveLength(1);
    expect(update[0]!.args[0]).toBe('cur');
    const patch = update[0]!.args[1] as Record<string, unknown>;
    expect(patch).toEqual({ text: 'engine', tags: ['car', 'errands'], importance: 0.5, source: undefined, media: [] });
    expect('source' in patch).toBe(true); // sent: the current source is removed
    expect(screen.getByTestId('toast').textContent).toContain('The one it replaces is kept in the history.');
  });

  it('offers nothing to bring back for a memory in the trash', async () => {
    render(<HistoryList id="cur" shownId="cur" editable={false} />);
    await screen.findAllByTestId('history-version');
    expect(screen.queryByRole('button', { name: 'Bring back this version' })).toBeNull();
  });
});

describe('patchOf (the editor sends only what changed)', () => {
  const t = new Date(2026, 2, 5, 14, 30).getTime();
  const m: Memory = {
    id: 'x', text: 'old', tags: ['a'], suggestedTags: [], importance: 0.5, createdAt: t, updatedAt: t, validFrom: t,
    validTo: new Date(2026, 5, 1).getTime(), sessionId: 's', status: 'active', deletedAt: null, embedTruncated: false,
  };

  it('nothing changed: an empty patch', () => {
    expect(patchOf(m, draftOf(m))).toEqual({});
  });

  it('new text and tags, "still true" (no until), a new day it happened and a new start of truth', () => {
    const d = { ...draftOf(m), text: 'new', tags: 'A, b', validTo: '', happened: '2025-12-24T08:00', validFrom: '2025-12-24' };
    expect(patchOf(m, d)).toEqual({
      text: 'new',
      tags: ['a', 'b'],
      validTo: null,
      createdAt: new Date(2025, 11, 24, 8, 0).getTime(),
      validFrom: new Date(2025, 11, 24).getTime(),
    });
  });

  it('an emptied source is removed (sent as undefined)', () => {
    const withSource = { ...m, source: 'journal' };
    const p = patchOf(withSource, { ...draftOf(withSource), source: '  ' });
    expect('source' in p && p.source === undefined).toBe(true);
  });
});
