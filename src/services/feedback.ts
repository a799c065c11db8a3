// Feedback: reinforce / suppress are stored first (the log is the truth), then handed to the
// engine's feedback state and lateral evaluator, whose new state is saved. Returns data (the
// stored row, whether the memory was a lateral result); the UI words the confirmation.

import { AppError } from '../core/errors';
import { validateFeedbackReason, validateValence, type LateralStatus } from '../core/recall';
import type { MemoryId, RetrievalMode } from '../core/types';
import { addFeedbackRow, putSetting } from '../db/repo';
import type { FeedbackRow } from '../db/schema';
import type { EngineClient } from '../bridge/engine-bridge';
import type { EngineFeedbackEvent } from '../protocol/engine';
import type { ServiceContext } from './context';
import { SETTING_KEYS } from './settings';
import type { EngineSync } from './sync';
import type { FeedbackInput, FeedbackOutcome } from './types';

function checkId(id: unknown): MemoryId {
  if (typeof id !== 'string' || !id) throw new AppError('INVALID_OPTION', 'Feedback needs a memory id.');
  return id;
}

export function validateFeedback(f: unknown): FeedbackInput {
  if (typeof f !== 'object' || f === null) throw new AppError('INVALID_OPTION', 'Feedback must be an object.');
  const r = f as Record<string, unknown>;
  checkId(r.memoryId);
  if (r.kind !== 'reinforce' && r.kind !== 'suppress') throw new AppError('INVALID_OPTION', "Feedback kind must be 'reinforce' or 'suppress'.");
  if (r.valence !== undefined) validateValence(r.valence); // -100..100
  validateFeedbackReason(r.reason); // the one reason rule: text, at most MAX_REASON_LENGTH once trimmed
  if (r.mode !== undefined && r.mode !== 'standard' && r.mode !== 'lateral' && r.mode !== 'associative')
    throw new AppError('INVALID_OPTION', 'Unknown retrieval mode.');
  return r as unknown as FeedbackInput;
}

/** A stored feedback row as the core's event (valence defaults to 0 for a reinforce without one). */
export function toFeedbackEvent(row: FeedbackRow): EngineFeedbackEvent {
  return row.kind === 'reinforce'
    ? { kind: 'reinforce', id: row.memoryId, valence: row.valence ?? 0, at: row.at }
    : { kind: 'suppress', id: row.memoryId, ...(row.reason !== undefined ? { reason: row.reason } : {}), at: row.at };
}

/** Remembered modes are bounded: the oldest goes first. */
const MAX_REMEMBERED_MODES = 2000;

export function createFeedback(ctx: ServiceContext, engine: EngineClient, sync: EngineSync, onReinforced: (id: MemoryId) => Promise<void> = async () => {}) {
  const { db } = ctx;
  /** Mode each id was last returned in by recall() (stored with its feedback). */
  const lastModes = new Map<MemoryId, RetrievalMode>();

  async function store(f: FeedbackInput): Promise<FeedbackOutcome> {
    const mode = f.mode ?? lastModes.get(f.memoryId);
    const row: FeedbackRow = {
      id: ctx.newId(),
      memoryId: f.memoryId,
      kind: f.kind,
      at: ctx.now(),
      ...(f.valence !== undefined ? { valence: f.valence } : {}),
      ...(f.reason !== undefined ? { reason: f.reason } : {}),
      ...(mode !== undefined ? { mode } : {}),
    };
    await addFeedbackRow(db, row); // the log is the truth; the engines follow it
    sync.broadcast({ feedback: row });
    let wasLateral = false;
    try {
      const out = await engine.recordFeedback(toFeedbackEvent(row));
      wasLateral = out.wasLateral;
      await putSetting(db, SETTING_KEYS.evaluator, out.evaluator);
    } catch (e) {
      ctx.report(e); // stored: the engine replays the log when it restarts
    }
    // decay: a reinforcement refreshes the memory's last access and adds to its strength
    if (row.kind === 'reinforce') await onReinforced(row.memoryId);
    return { row, wasLateral };
  }

  return {
    /** recall() tells which mode each shown memory was returned in. */
    noteReturned(id: MemoryId, mode: RetrievalMode): void {
      lastModes.set(id, mode);
      if (lastModes.size > MAX_REMEMBERED_MODES) lastModes.delete(lastModes.keys().next().value as MemoryId);
    },

    /** Stores a feedback event (valence -100..100) and hands it to the engine. Returns the stored row. */
    async recordFeedback(input: FeedbackInput): Promise<FeedbackRow> {
      return (await store(validateFeedback(input))).row;
    },

    /**
     * reinforce(id, valence -100..100): future rankings lift the memory (factor 1 + 0.5 tanh(net/200));
     * counted by the lateral evaluator when it was returned as a lateral result (`wasLateral`).
     */
    async reinforce(id: MemoryId, valence: number): Promise<FeedbackOutcome> {
      checkId(id);
      validateValence(valence);
      return store({ memoryId: id, kind: 'reinforce', valence });
    },

    /** suppress(id, reason): demoted (x0.2) and never lateral or associative again until a positive reinforcement. */
    async suppress(id: MemoryId, reason?: string): Promise<FeedbackOutcome> {
      checkId(id);
      const why = validateFeedbackReason(reason);
      return store({ memoryId: id, kind: 'suppress', ...(why ? { reason: why } : {}) });
    },

    /** The lateral evaluator's status (enabled, threshold, samples, LUR, LSR, LHI, last action). */
    lateralStatus: (): Promise<LateralStatus> => engine.lateralStatus(),

    /** Turns lateral retrieval back on after an auto-disable (fresh counters). */
    async reEnableLateral(): Promise<LateralStatus> {
      await putSetting(db, SETTING_KEYS.evaluator, await engine.reEnableLateral());
      return engine.lateralStatus();
    },
  };
}

export type Feedback = ReturnType<typeof createFeedback>;
