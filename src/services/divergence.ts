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
import { liveSettingQuery } from '../db/repo';
import { divergenceAlertsFrom, SETTING_KEYS } from './settings';

export function createDivergence(ctx: ServiceContext, engine: EngineClient, session: Session) {
  let latest: DivergenceView | null = null;
  const listeners = new Set<(d: DivergenceView | null) => void>();
  // The person's "divergence alerts" setting (Settings, on by default), followed live (also from
  // other tabs): while off nothing is computed after a capture and no divergence is handed out,
  // so neither the banner nor the graph's marks appear.
  let alertsOn = true;
  const alertsSub = liveSettingQuery(ctx.db, SETTING_KEYS.divergenceAlerts, divergenceAlertsFrom).subscribe({
    next: (on) => {
      alertsOn = on;
      if (!on && latest) set(null);
    },
    error: (e: unknown) => ctx.report(e),
  });

  function set(d: DivergenceView | null): void {
    latest = alertsOn ? d : null;
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
      if (!alertsOn) return;
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
      if (!outcome.divergence || !alertsOn) return null;
      const view = viewOf(outcome.divergence, { trigger: 'search', at, query });
      set(view);
      return view;
    },

    dispose: (): void => {
      alertsSub.unsubscribe();
      listeners.clear();
    },
  };
}
