// Per-model data derived once and reused by every frame: node indices, edge ends, neighbours and
// the order in which labels claim space.
import type { GraphModel, NodeKind } from './model';
import { labelPlan } from './labels';

export interface Transform {
  k: number;
  x: number;
  y: number;
}

/** Per-model data derived once, reused every frame. */
export interface Scene {
  model: GraphModel;
  index: Map<string, number>;
  /** Interleaved [source, target] node indices per edge. */
  ends: Uint32Array;
  radii: Float32Array;
  neighbours: number[][];
  /** Node indices by label priority (labels.ts: the always-named ones first, then by score). */
  labelOrder: Uint32Array;
  /** Always named: the query, the alert, the top hits, the ends of chains. */
  important: boolean[];
  kindOf: NodeKind[];
}

export function buildScene(model: GraphModel, radii: Float32Array): Scene {
  const index = new Map<string, number>();
  model.nodes.forEach((n, i) => index.set(n.id, i));
  const ends = new Uint32Array(model.edges.length * 2);
  const neighbours: number[][] = model.nodes.map(() => []);
  model.edges.forEach((e, k) => {
    const s = index.get(e.source)!;
    const t = index.get(e.target)!;
    ends[2 * k] = s;
    ends[2 * k + 1] = t;
    neighbours[s].push(t);
    neighbours[t].push(s);
  });
  const plan = labelPlan(model);
  return { model, index, ends, radii, neighbours, labelOrder: Uint32Array.from(plan.order), important: plan.important, kindOf: model.nodes.map((n) => n.kind) };
}
