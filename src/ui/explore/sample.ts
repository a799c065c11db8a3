// One-click sample collection: the hand-written memories of src/sample, imported all or nothing.
import { services } from '../../services';
import { loadSampleMemories } from '../../sample';

export async function loadSample(onProgress: (done: number, total: number) => void, signal: AbortSignal): Promise<number> {
  const items = await loadSampleMemories();
  onProgress(0, items.length);
  const added = await services().importMemories(
    items.map((m) => ({
      text: m.text,
      tags: m.tags,
      importance: m.importance,
      source: m.source,
      createdAt: Date.parse(m.createdAt),
      sessionId: m.sessionId,
      media: m.media?.map((x) => ({ ...x })),
    })),
    { signal, sample: true, onProgress: (p) => onProgress(p.embedded, p.total) },
  );
  return added.length;
}
