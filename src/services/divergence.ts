// The divergence store: how far the last capture or recall drifted from the recent window (the
// current session within the last recentWindowHours, else that window; content spaces only).
// A capture asks the engine; a recall brings it in its own outcome. Either way a failure is
// reported and never fails the capture or recall that triggered it.
//
// Whether to TELL the person is decided here with the core's rule (divergenceVerdict in
// src/core/spaces/divergence-gate.ts: strong evidence only), then the Dismiss hold: a dismissed
// alert stays quiet for the rest of its topic, i.e. while the recent work's meaning centroid is
// within SAME_TOPIC_COSINE of the dismissed one (or, without vectors, while half of the dismissed
// window is still in it). A different recent topic may alert again. Dismissals last for this
// services instance (this tab): a reload starts a new session, whose first step never alerts.

import { toAppError } from '../core/errors';
import { divergenceVerdict, sameTopic } from '../core/spaces';
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
  /** Topics of dismissed alerts: a later alert about the same recent work stays quiet. */
  const dismissed: { centroid: Float32Array | null; ids: MemoryId[] }[] = [];
  const topics = new WeakMap<DivergenceView, { centroid: Float32Array | null; ids: MemoryId[] }>();
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
    const recentIds = out.recent.map((r) => r.id);
    const topic = { centroid: out.topic?.centroid ?? null, ids: recentIds };
    // this capture or recall is already counted in the session's actions
    const earlierActions = Math.max(0, session.sessionState().actions - 1);
    const verdict = divergenceVerdict({ alerts: out.alerts, windowSize: out.recent.length, earlierActions, meaningLine: out.meaningLine });
    const held = verdict.show && dismissed.some((d) => sameTopic(d, topic));
    const view: DivergenceView = {
      trigger: src.trigger,
      at: src.at,
      ...(src.memoryId ? { memoryId: src.memoryId } : {}),
      ...(src.query !== undefined ? { query: src.query } : {}),
      alerts: out.alerts,
      recentIds,
      recent: out.recent.map((r) => ({ id: r.id, label: firstLine(r.text), createdAt: r.createdAt })),
      show: verdict.show && !held,
      reason: held ? 'dismissed' : verdict.reason,
      agreeing: verdict.agreeing,
      best: out.best ?? {},
      topic: out.topic?.words ?? '',
      windowHours: out.hours ?? 2,
      ...(out.lines ? { lines: out.lines } : {}),
      ...(out.meaningLine !== undefined ? { meaningLine: out.meaningLine } : {}),
    };
    topics.set(view, topic);
    return view;
  }

  return {
    /** The divergence of the last capture or recall from the recent window (null before any). */
    latestDivergence: (): DivergenceView | null => latest,

    /** Calls fn on every new divergence result; returns the unsubscribe function. */
    subscribeDivergence(fn: (d: DivergenceView | null) => void): () => void {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },

    /**
     * The banner was dismissed: forget the current divergence, and stay quiet for the rest of its
     * topic (later alerts about the same recent work come with show = false, reason 'dismissed').
     */
    clearDivergence(): void {
      const t = latest && latest.show ? topics.get(latest) : undefined;
      if (t) dismissed.push(t);
      set(null);
    },

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
