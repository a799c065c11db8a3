// The open memory's panel, wired to the services: tag edits, reinforce and suppress (each
// refreshes the lateral status, which counts feedback on lateral results).
import { services, type RecallView } from '../../services';
import { formatReinforceLine, formatSuppressLine } from '../app/format';
import { labelOf } from './view-model';
import type { SimilarityConfig } from '../../core/spaces';
import type { Memory, MemoryId } from '../../core/types';
import { MemoryPanel, SpaceExplanationPanel } from './panels';

export interface OpenMemoryProps {
  memory: Memory;
  view: RecallView | undefined;
  queryText: string;
  labelFor: (id: MemoryId) => string;
  config: SimilarityConfig | undefined;
  onClose: () => void;
  /** The memory was saved with new tags. */
  onChanged: (m: Memory) => void;
  /** Feedback was recorded. */
  onFeedback: () => void;
}

export function OpenMemory({ memory, view, queryText, labelFor, config, onClose, onChanged, onFeedback }: OpenMemoryProps) {
  return (
    <MemoryPanel
      memory={memory}
      result={view?.result}
      queryText={queryText}
      labelFor={labelFor}
      explanation={
        view ? <SpaceExplanationPanel sims={view.result.spaces.sims} config={config} relevance={view.result.spaces.relevance} hybrid={view.result.why} /> : undefined
      }
      onClose={onClose}
      onTagsChange={async (t) => onChanged(await services().setTags(memory.id, t))}
      onReinforce={async (v) => {
        const out = await services().reinforce(memory.id, v);
        onFeedback();
        return formatReinforceLine(labelOf(memory.text, 40), v, out.wasLateral); // the memory by its words, not its id
      }}
      onSuppress={async (reason) => {
        const out = await services().suppress(memory.id, reason || undefined);
        onFeedback();
        return formatSuppressLine(labelOf(memory.text, 40), out.row.reason, out.wasLateral);
      }}
    />
  );
}
