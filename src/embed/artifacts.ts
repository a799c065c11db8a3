// Builds tfjs ModelArtifacts from a model.json and its weight shards, wherever they came from
// (fetch with progress in the worker, the file system in Node). No network access here.
import type { io } from '@tensorflow/tfjs-core';
import { AppError } from '../core/errors';

export interface ModelJson {
  modelTopology: unknown;
  weightsManifest: Array<{ paths: string[]; weights: io.WeightsManifestEntry[] }>;
  format?: string;
  generatedBy?: string;
  convertedBy?: string | null;
}

/** Validates the parsed model.json enough to fail with MODEL_LOAD_FAILED instead of deep in tfjs. */
export function parseModelJson(raw: unknown): ModelJson {
  const m = raw as Partial<ModelJson> | null;
  if (!m || typeof m !== 'object' || !m.modelTopology || !Array.isArray(m.weightsManifest)) {
    throw new AppError('MODEL_LOAD_FAILED', undefined, 'model.json has no modelTopology / weightsManifest');
  }
  return m as ModelJson;
}

/** Shard file names in manifest order. */
export function shardPaths(model: ModelJson): string[] {
  return model.weightsManifest.flatMap((g) => g.paths);
}

/** Artifacts with the shards kept as separate buffers (tfjs 4 accepts ArrayBuffer[]). */
export function toArtifacts(model: ModelJson, shards: ArrayBuffer[]): io.ModelArtifacts {
  const expected = shardPaths(model).length;
  if (shards.length !== expected) {
    throw new AppError('MODEL_LOAD_FAILED', undefined, `expected ${expected} weight shards, got ${shards.length}`);
  }
  return {
    modelTopology: model.modelTopology as io.ModelArtifacts['modelTopology'],
    weightSpecs: model.weightsManifest.flatMap((g) => g.weights),
    weightData: shards,
    format: model.format,
    generatedBy: model.generatedBy,
    convertedBy: model.convertedBy ?? undefined,
  };
}
