// The divergence store: how far the last capture or recall drifted from the recent window (the
// current session within the last recentWindowHours, else that window; content spaces only).
// A capture asks the engine; a recall brings it in its own outcome. Either way a failure is
// reported and never fails the capture or recall that triggered it.

import { toAppError } from '../core/errors';
import type { MemoryId } from '../core/types';
import type { EngineClient } from '../bridge/engine-bridge';
import { firstLine, type EngineDivergenceOutcome, type EngineRecallOutcome } from '../protocol/engine';
import type { ServiceContext } from './context';
import type { SerializedFeatures } from './featurizer';
import type { Session } from './session';
import type { DivergenceView } from './types';

export function createDivergence(ctx: ServiceContext, engine: EngineClient, session: Session) {
  let latest: DivergenceView | null = null;
  const listeners = new Set<(d: DivergenceView | null) => void>();

  function set(d: DivergenceView | null): void {
    latest = d;
    for (const fn of [...listeners]) fn(d);
  }

  function viewOf(out: EngineDivergenceOutcome, src: { trigger: 'capture' | 'search'; at: number; memoryId?: MemoryId; query?: string }): DivergenceView {
    return {
      trigger: src.trigger,
      at: src.at,
      ...(src.memoryId ? { memoryId: src.memoryId } : {}),
      ...(src.query !== undefined ? { query: src.query } : {}),
      alerts: out.alerts,
      recentIds: out.recent.map((r) => r.id),
      recent: out.recent.map((r) => ({ id: r.id, label: firstLine(r.text), createdAt: r.createdAt })),
    };
  }

  return {
    /** The divergence of the last capture or recall from the recent window (null before any). */
    latestDivergence: (): DivergenceView | null => latest,

    /** Calls fn on every new divergence result; returns the unsubscribe function. */
    subscribeDivergence(fn: (d: DivergenceView | null) => void): () => void {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },

    /** Forget the current divergence (the banner was dismissed). */
    clearDivergence: (): void => set(null),

    /** A new memory compared with the recent window, itself left out. */
    async afterCapture(features: SerializedFeatures, memoryId: MemoryId): Promise<void> {
      try {
        const at = ctx.now();
        const out = await engine.divergence({ features, now: at, sessionId: session.idAt(at), excludeId: memoryId });
        set(viewOf(out, { trigger: 'capture', at, memoryId }));
      } catch (e) {
        ctx.report(e);
      }
    },

    /** The divergence a recall brought in its outcome (null when the engine could not compute it). */
    afterRecall(outcome: EngineRecallOutcome, query: string, at: number): DivergenceView | null {
      if (outcome.divergenceError) ctx.report(toAppError(outcome.divergenceError));
      if (!outcome.divergence) return null;
      const view = viewOf(outcome.divergence, { trigger: 'search', at, query });
      set(view);
      return view;
    },

    dispose: (): void => listeners.clear(),
  };
}
