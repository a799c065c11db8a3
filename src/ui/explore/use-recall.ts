// The recall run: one request at a time (a newer one supersedes the older), and what a recall
// shows (its results and the labels of chain members that are not results) committed in ONE state
// change, so the graph is built and laid out once per recall.
import { useCallback, useEffect, useMemo, useState } from 'react';
import { createRecallController, getMemory, type RecallView } from '../../services';
import { isAborted } from '../../core/errors';
import type { RecallOptionsInput } from '../../core/recall';
import type { Memory, MemoryId } from '../../core/types';
import { normaliseTags } from '../../core/validate';
import { logError } from '../app/report';
import { errorMessage } from '../app/format';
import { labelOf, missingChainIds } from './view-model';

/** What one recall returned, as drawn by the graph and the list. */
export interface RecallSnapshot {
  query: string;
  views: RecallView[];
  /** Labels of chain members that are not results themselves (fetched by id). */
  extraLabels: ReadonlyMap<MemoryId, string>;
}

export interface RecallState {
  pending: boolean;
  /** Message of the last recall's failure, shown under the form. */
  error: string | null;
  snapshot: RecallSnapshot | null;
}

export interface UseRecall extends RecallState {
  /** Resolves true when its results were committed (false: empty query, superseded, failed). */
  run(text: string, tags: string, options: RecallOptionsInput): Promise<boolean>;
  /** A memory changed (e.g. its tags): the results show the new version. */
  replaceMemory(m: Memory): void;
}

const EMPTY: RecallState = { pending: false, error: null, snapshot: null };

/** Chain members' labels; one that cannot be read keeps its id as label (logged, not shown). */
async function chainLabels(views: readonly RecallView[]): Promise<Map<MemoryId, string>> {
  const got = await Promise.all(
    missingChainIds(views).map((id) =>
      getMemory(id).then(
        (m) => [id, labelOf(m.text, 48)] as const,
        (e: unknown) => {
          logError(e);
          return null;
        },
      ),
    ),
  );
  return new Map(got.filter((g): g is readonly [MemoryId, string] => g !== null));
}

export function useRecall(): UseRecall {
  const controller = useMemo(() => createRecallController(), []);
  const [state, setState] = useState<RecallState>(EMPTY);
  useEffect(() => () => controller.abort(), [controller]);

  const run = useCallback(
    async (text: string, tags: string, options: RecallOptionsInput): Promise<boolean> => {
      const query = text.trim();
      if (!query) return false;
      setState((s) => ({ ...s, pending: true, error: null }));
      try {
        const queryTags = normaliseTags(tags);
        const out = await controller.run(query, queryTags.length ? { ...options, queryTags } : options);
        if (out.status !== 'fresh') return false;
        const extraLabels = await chainLabels(out.results);
        if (controller.latestRequestId() !== out.requestId) return false; // a newer recall started meanwhile
        setState({ pending: false, error: null, snapshot: { query, views: out.results, extraLabels } });
        return true;
      } catch (e) {
        if (isAborted(e)) return false;
        setState((s) => ({ ...s, pending: false, error: errorMessage(e) }));
        return false;
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
