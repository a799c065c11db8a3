// Layout worker: runs the d3-force layout off the main thread. Typed Comlink API; positions go
// back as a transferred Float32Array (no copy).
import * as Comlink from 'comlink';
import { computeLayout, type LayoutRequest, type LayoutResult } from '../src/ui/graph/layout';

const api = {
  layout(req: LayoutRequest): LayoutResult {
    const result = computeLayout(req);
    return Comlink.transfer(result, [result.positions.buffer]);
  },
  ping(): 'pong' {
    return 'pong';
  },
};

export type LayoutApi = typeof api;

Comlink.expose(api);
