// The graph model of the Explore view, built once per recall (and again only when the person
// changes a graph control or dismisses the divergence alert).
//
// A recall used to change three inputs of the model one after another: the divergence (set by the
// services before the results arrive), the results, then the labels of chain members fetched
// after them. Each change built a new model and started a layout, of which only the last was
// drawn. Now the results and labels arrive together (useRecall), and while a recall is in flight
// the graph keeps the divergence it was drawn with, so the recall's divergence is drawn with its
// results: one model, one layout.
import { useMemo, useRef, useSyncExternalStore } from 'react';
import { services, type DivergenceView } from '../../services';
import { buildGraphModel, type GraphDepth, type GraphModel, type MemoryKind } from '../graph';
import { logError } from '../app/report';
import type { RecallSnapshot } from './use-recall';
import { graphInput } from './view-model';

const none = (): null => null;

/** Divergence of the last capture or recall from the recent window (null before any). */
export function useDivergence(): DivergenceView | null {
  const s = services();
  return useSyncExternalStore(s.subscribeDivergence, s.latestDivergence, none);
}

/** `value` as it was when `hold` last was false. */
export function useHeld<T>(value: T, hold: boolean): T {
  const held = useRef(value);
  if (!hold) held.current = value;
  return held.current;
}

export interface GraphControls {
  showTags: boolean;
  depth: GraphDepth;
  kind: MemoryKind | 'all';
  tagFilter: string;
}

export function useGraphModel(snapshot: RecallSnapshot | null, liveDivergence: DivergenceView | null, pending: boolean, controls: GraphControls): GraphModel | null {
  const divergence = useHeld(liveDivergence, pending);
  const { showTags, depth, kind, tagFilter } = controls;
  return useMemo(() => {
    if (!snapshot && !divergence?.show) return null;
    try {
      return buildGraphModel(
        graphInput({
          query: snapshot?.query || divergence?.query || 'recent work',
          views: snapshot?.views ?? [],
          divergence,
          showTags,
          depth,
          filters: { kinds: kind === 'all' ? undefined : [kind], tag: tagFilter.trim() || undefined },
          extraLabels: snapshot?.extraLabels,
        }),
      );
    } catch (e) {
      // the results list still shows the recall; the graph falls back to its placeholder
      logError(e);
      return null;
    }
  }, [snapshot, divergence, showTags, depth, kind, tagFilter]);
}
