// "Hidden from results": the suppressed memories as the ranking sees them, and Undo.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { FeedbackRow } from '../db/schema';
import { hiddenFromLog, UNDO_VALENCE } from './feedback';
import { services } from './index';
import { startServices } from '../testing/services';

const row = (memoryId: string, kind: FeedbackRow['kind'], at: number, extra: Partial<FeedbackRow> = {}): FeedbackRow => ({ id: `${memoryId}-${at}`, memoryId, kind, at, ...extra });

describe('hiddenFromLog', () => {
  it('lists what the latest event leaves suppressed, newest first, with the latest reason', () => {
    const rows = [
      row('a', 'suppress', 1, { reason: 'first' }),
      row('b', 'suppress', 2),
      row('a', 'suppress', 3, { reason: 'again' }),
      row('b', 'reinforce', 4, { valence: 10 }), // lifts b
      row('c', 'suppress', 5),
      row('c', 'reinforce', 6, { valence: -20 }), // a negative reinforcement does not lift it
    ];
    expect(hiddenFromLog(rows)).toEqual([
      { id: 'c', at: 5 },
      { id: 'a', at: 3, reason: 'again' },
    ]);
  });
});

describe('listHidden / undoSuppress', () => {
  it('a suppressed memory is listed by its text until Undo puts it back in the results', async () => {
    let t = 1_700_000_000_000;
    await startServices({ now: () => t++ });
    const s = services();
    const kept = await s.addMemory({ text: 'Walnut board oiled twice' });
    const pushed = await s.addMemory({ text: 'Walnut stain went blotchy on the pine' });
    expect(await s.listHidden()).toEqual([]);
    await s.suppress(pushed.id, 'wrong wood');
    const hidden = await s.listHidden();
    expect(hidden.map((h) => [h.memory.text, h.reason])).toEqual([['Walnut stain went blotchy on the pine', 'wrong wood']]);
    const before = (await s.recall('walnut')).results.find((v) => v.memory.id === pushed.id)!;
    expect(before.result.feedbackFactor).toBeCloseTo(0.2, 6); // suppressed: x0.2
    const out = await s.undoSuppress(pushed.id);
    expect(out.row).toMatchObject({ kind: 'reinforce', valence: UNDO_VALENCE, reason: 'undo', memoryId: pushed.id });
    expect(await s.listHidden()).toEqual([]);
    const after = (await s.recall('walnut')).results.find((v) => v.memory.id === pushed.id)!;
    expect(after.result.feedbackFactor ?? 1).toBeCloseTo(1 + 0.5 * Math.tanh(1 / 200), 6); // back, +0.25%
    expect(kept.id).not.toBe(pushed.id);
  });

  it('leaves out a deleted memory', async () => {
    await startServices();
    const s = services();
    const m = await s.addMemory({ text: 'a memory to push away and delete' });
    await s.suppress(m.id);
    expect(await s.listHidden()).toHaveLength(1);
    await s.deleteMemory(m.id);
    expect(await s.listHidden()).toEqual([]);
  });
});
