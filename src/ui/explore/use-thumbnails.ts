// The thumbnails of the pictures on the graph's memories: one read of the stored pictures per
// model (only the ids the model names), by memory id, for <RecallGraph thumbnails>.
import { useEffect, useState } from 'react';
import { services } from '../../services';
import type { GraphModel } from '../graph';
import { logError } from '../app/report';

export function useGraphThumbnails(model: GraphModel | null): ReadonlyMap<string, Blob> | undefined {
  const [state, setState] = useState<{ model: GraphModel; thumbs: ReadonlyMap<string, Blob> } | null>(null);
  useEffect(() => {
    const wanted = (model?.nodes ?? []).flatMap((n) => (n.picture && n.memoryId ? [{ memoryId: n.memoryId, imageId: n.picture.imageId }] : []));
    if (!model || wanted.length === 0) return;
    let live = true;
    services()
      .getImages(wanted.map((w) => w.imageId))
      .then((rows) => {
        if (!live) return;
        const byImage = new Map(rows.map((r) => [r.id, r.thumb]));
        const thumbs = new Map<string, Blob>();
        for (const w of wanted) {
          const t = byImage.get(w.imageId);
          if (t) thumbs.set(w.memoryId, t);
        }
        setState({ model, thumbs });
      }, logError);
    return () => {
      live = false;
    };
  }, [model]);
  return state && state.model === model ? state.thumbs : undefined;
}
