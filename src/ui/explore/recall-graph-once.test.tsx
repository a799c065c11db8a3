// @vitest-environment jsdom
// One recall builds one graph model (so the graph lays out once): the divergence the services
// publish before the results, the results, and the chain labels that come with them arrive as one.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import type { DivergenceView, RecallView } from '../../services';
import type { GraphModel } from '../graph';
import { useRecall, type UseRecall } from './use-recall';
import { useDivergence, useGraphModel, useHeld } from './use-graph-model';

const svc = vi.hoisted(() => {
  let divergence: unknown = null;
  const listeners = new Set<(d: unknown) => void>();
  return {
    run: vi.fn(),
    latestDivergence: () => divergence,
    subscribeDivergence: (fn: (d: unknown) => void) => {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    publish(d: unknown) {
      divergence = d;
      for (const fn of listeners) fn(d);
    },
  };
});

vi.mock('../../services', () => ({
  createRecallController: () => ({ run: svc.run, abort: () => undefined, latestRequestId: () => 1 }),
  services: () => ({ latestDivergence: svc.latestDivergence, subscribeDivergence: svc.subscribeDivergence }),
}));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
  svc.publish(null);
});

// 'a' is a result reached through 'c', which is not a result itself: its label comes with the outcome.
const viewA = {
  memory: { id: 'a', text: 'memory a', tags: [], importance: 0.5, createdAt: 0, updatedAt: 0, status: 'active' },
  result: { id: 'a', score: 0.5, mode: 'associative', chain: [{ id: 'c', hop: 1, cosine: 0.8 }, { id: 'a', hop: 2, cosine: 0.78 }] },
  explanation: '',
} as unknown as RecallView;

const viewS = {
  memory: { id: 's', text: 'memory s', tags: [], importance: 0.5, createdAt: 0, updatedAt: 0, status: 'active' },
  result: { id: 's', score: 0.9, mode: 'standard' },
  explanation: '',
} as unknown as RecallView;

const divergence: DivergenceView = {
  trigger: 'search',
  at: 1,
  query: 'q',
  alerts: [{ embedder: 'E1', embedderName: 'Semantic', similarity: 0.1, threshold: 0.3 } as DivergenceView['alerts'][number]],
  recentIds: [],
  recent: [],
  show: true,
  reason: 'strong',
  agreeing: ['E1', 'E6', 'E13'],
  best: { E1: 0.1 },
  topic: '',
  windowHours: 2,
};

function Harness({ onModel, expose }: { onModel: (m: GraphModel | null) => void; expose: (r: UseRecall) => void }) {
  const recall = useRecall();
  const model = useGraphModel(recall.snapshot, useDivergence(), recall.pending, { showTags: false, depth: 4, kind: 'all', tagFilter: '' });
  expose(recall);
  onModel(model);
  return null;
}

describe('one recall, one graph model', () => {
  it('publishes the divergence, the results and the chain labels in a single model', async () => {
    let releaseRecall!: () => void;
    const outcome = { results: [viewS, viewA], divergence, lateralStatus: null, labels: { c: 'chain member c' } };
    svc.run.mockImplementation(
      () =>
        new Promise((resolve) => {
          releaseRecall = () => resolve({ status: 'fresh', requestId: 1, query: 'q', results: outcome });
        }),
    );

    const models = new Set<GraphModel | null>();
    let recall!: UseRecall;
    render(<Harness onModel={(m) => models.add(m)} expose={(r) => (recall = r)} />);
    expect([...models]).toEqual([null]);

    let done!: Promise<unknown>;
    act(() => {
      done = recall.run('q', '', {});
    });
    expect(recall.pending).toBe(true);
    // The services publish the recall's divergence before it resolves: no graph yet.
    act(() => svc.publish(divergence));
    expect([...models]).toEqual([null]);
    await act(async () => {
      releaseRecall();
      await done;
    });

    const built = [...models].filter((m): m is GraphModel => m !== null);
    expect(built).toHaveLength(1);
    const labels = Object.fromEntries(built[0].nodes.map((n) => [n.id, n.label]));
    expect(Object.values(labels)).toContain('chain member c');
    expect(built[0].nodes.filter((n) => n.kind === 'alert')).toHaveLength(1);
    expect(recall.pending).toBe(false);
    expect(recall.snapshot?.extraLabels.get('c')).toBe('chain member c');
  });

  it('gives a failed recall\'s message to the form and ends pending', async () => {
    svc.run.mockRejectedValueOnce(Object.assign(new Error('The operation took too long and was stopped. Try again.'), { code: 'TIMEOUT' }));
    let recall!: UseRecall;
    render(<Harness onModel={() => undefined} expose={(r) => (recall = r)} />);
    await act(async () => {
      expect(await recall.run('q', '', {})).toBeNull();
    });
    expect(recall.error).toBe('The operation took too long and was stopped. Try again.');
    expect(recall.pending).toBe(false);
    expect(recall.snapshot).toBeNull();
  });
});

describe('useHeld', () => {
  it('keeps the value it had while hold is true, then follows it again', () => {
    const seen: string[] = [];
    function Probe({ v, hold }: { v: string; hold: boolean }) {
      seen.push(useHeld(v, hold));
      return null;
    }
    const { rerender } = render(<Probe v="a" hold={false} />);
    rerender(<Probe v="b" hold />);
    rerender(<Probe v="c" hold />);
    rerender(<Probe v="d" hold={false} />);
    expect(seen).toEqual(['a', 'a', 'a', 'd']);
  });
});
