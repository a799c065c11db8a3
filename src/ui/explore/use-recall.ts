// The recall run: one request at a time (a newer one supersedes the older), and what a recall
// shows (its results and the labels of chain members that are not results, both in the one
// outcome the services return) committed in ONE state change, so the graph is built and laid out
// once per recall.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { createRecallController, type RecallOutcomeView, type RecallView } from '../../services';
import { isAborted } from '../../core/errors';
import type { RecallOptionsInput } from '../../core/recall';
import type { Memory, MemoryId } from '../../core/types';
import { normaliseTags } from '../../core/validate';
import { errorMessage } from '../app/format';
import { labelOf } from './view-model';
import { CHAIN_FILTER, keepChainViews } from './chains';
import { onActiveScale } from '../app/encoder-scale';

/** What one recall returned, as drawn by the graph and the list. */
export interface RecallSnapshot {
  query: string;
  views: RecallView[];
  /** Labels of chain members that are not results themselves (they come with the outcome). */
  extraLabels: ReadonlyMap<MemoryId, string>;
  /** Associative results left out as weaker chains (keepChains, ./chains.ts). */
  hiddenChains: number;
  /** Deeper search (seed 003), when this recall escalated or a bound stopped it. */
  deep?: RecallOutcomeView['deepSearch'];
  /** Iterative search (seed 001), when it was on. */
  iterative?: RecallOutcomeView['iterative'];
  /** Keyword results while the rest loads (the search model, or the stored features after a start). */
  partial: boolean;
  /** Late interaction can refine this answer (the view asks for it at once: `run` with `refine`). */
  refinable: boolean;
  /** This answer is the refined one (late interaction over the first answer's candidates). */
  refined: boolean;
  /** The refinement's time (ms), for diagnostics and the e2e. */
  refineMs?: number;
  /** Careful ranking on the refined answer: applied, or why not (its details line). */
  careful?: RecallOutcomeView['careful'];
}

export interface RecallState {
  pending: boolean;
  /** A refinement of the answer shown is under way (late interaction; the answer stays meanwhile). */
  refining: boolean;
  /** Message of the last recall's failure, shown under the form. */
  error: string | null;
  snapshot: RecallSnapshot | null;
}

export interface UseRecall extends RecallState {
  /** Resolves with the outcome when its results were committed (null: empty query, superseded, failed). */
  /**
   * `refine`: the refinement of the answer shown (not pending meanwhile: the answer stays on
   * screen; a failure keeps it, silently; a newer run cancels it).
   */
  run(text: string, tags: string, options: RecallOptionsInput, how?: { keywordsOnly?: boolean; refine?: boolean }): Promise<RecallOutcomeView | null>;
  /** A memory changed (e.g. its tags): the results show the new version. */
  replaceMemory(m: Memory): void;
}

const EMPTY: RecallState = { pending: false, refining: false, error: null, snapshot: null };

export function useRecall(): UseRecall {
  const controller = useMemo(() => createRecallController(), []);
  const [state, setState] = useState<RecallState>(EMPTY);
  useEffect(() => () => controller.abort(), [controller]);

  const run = useCallback(
    async (text: string, tags: string, options: RecallOptionsInput, how: { keywordsOnly?: boolean; refine?: boolean } = {}): Promise<RecallOutcomeView | null> => {
      const query = text.trim();
      if (!query) return null;
      setState((s) => (how.refine ? { ...s, refining: true } : { ...s, pending: true, refining: false, error: null }));
      try {
        const queryTags = normaliseTags(tags);
        const asked = queryTags.length ? { ...options, queryTags } : options;
        const out = await controller.run(query, how.keywordsOnly ? { ...asked, keywordsOnly: true } : how.refine ? { ...asked, refine: true } : asked);
        if (out.status !== 'fresh') return null; // superseded: the newer run owns the state
        const outcome = out.results;
        const extraLabels = new Map(Object.entries(outcome.labels).map(([id, label]) => [id, labelOf(label, 48)] as const));
        // only the chains worth showing; a hidden result may still be a step of a kept chain: keep its label
        const { kept, hidden } = keepChainViews(outcome.results, { ...CHAIN_FILTER, minStepCosine: onActiveScale(CHAIN_FILTER.minStepCosine) });
        const keptIds = new Set(kept.map((v) => v.memory.id));
        for (const v of outcome.results) if (!keptIds.has(v.memory.id)) extraLabels.set(v.memory.id, labelOf(v.memory.text, 48));
        // a refinable answer is refining from this commit on (the view starts it at once): no gap a reader could see
        setState({ pending: false, refining: outcome.refinable === true, error: null, snapshot: { query, views: kept, extraLabels, hiddenChains: hidden, deep: outcome.deepSearch, iterative: outcome.iterative, partial: outcome.partial === true, refinable: outcome.refinable === true, refined: outcome.refined === true, refineMs: outcome.refineMs, careful: outcome.careful } });
        return outcome;
      } catch (e) {
        if (isAborted(e)) return null;
        if (how.refine) {
          setState((s) => ({ ...s, refining: false })); // a failed refinement keeps the answer shown
          return null;
        }
        setState((s) => ({ ...s, pending: false, error: errorMessage(e) }));
        return null;
      }
    },
    [controller],
  );

  const replaceMemory = useCallback((m: Memory) => {
    setState((s) =>
      s.snapshot ? { ...s, snapshot: { ...s.snapshot, views: s.snapshot.views.map((v) => (v.memory.id === m.id ? { ...v, memory: m } : v)) } } : s,
    );
  }, []);

  return { ...state, run, replaceMemory };
}
