// A model from a folder the person picked (config.json, tokenizer.json, onnx/*.onnx, as the hub
// lays them out): its metadata read from the files themselves, its files checksummed and kept
// in Cache Storage like a download, so it runs offline afterwards.

import { AppError, describeError, MESSAGES } from '../core/errors';
import { fnv1a } from '../core/features';
import type { EncoderEntry, ModelDtype, Pooling } from './catalogue';
import { MODEL_CACHE_NAME, modelFileUrl, putModelFile, sha256Hex, type ModelCacheStorage } from './model-store';

export interface PickedFile {
  /** Path inside the picked folder ('onnx/model.onnx'); a leading folder name is dropped. */
  path: string;
  bytes: Uint8Array;
}

/** Weight files by preference: the int8 ones are a quarter of the size for the same results. */
const ONNX_CHOICES: { file: string; dtype: ModelDtype }[] = [
  { file: 'onnx/model_quantized.onnx', dtype: 'q8' },
  { file: 'onnx/model_int8.onnx', dtype: 'int8' },
  { file: 'onnx/model.onnx', dtype: 'fp32' },
];

const KEEP = new Set(['config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json']);

const invalid = (why: string) => new AppError('MODEL_FOLDER_INVALID', MESSAGES.modelFolder(why), why);

/** 'my-model/onnx/model.onnx' -> 'onnx/model.onnx' when every path shares the first folder. */
export function stripTopFolder(paths: string[]): string[] {
  const parts = paths.map((p) => p.replace(/\\/g, '/').replace(/^\/+/, '').split('/'));
  const top = parts[0]?.[0];
  const shared = parts.length > 0 && parts.every((p) => p.length > 1 && p[0] === top) && !paths.some((p) => p === 'config.json');
  return parts.map((p) => (shared ? p.slice(1) : p).join('/'));
}

function json(file: PickedFile | undefined, name: string): Record<string, unknown> | undefined {
  if (!file) return undefined;
  try {
    const v = JSON.parse(new TextDecoder().decode(file.bytes)) as unknown;
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object');
    return v as Record<string, unknown>;
  } catch (e) {
    throw invalid(`${name} is not valid JSON (${describeError(e)})`);
  }
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/**
 * Reads a picked folder: which weights to run, the dimension (config.json hidden_size), the
 * pooling (sentence-transformers' 1_Pooling/config.json; mean when absent), the query /
 * document prompts (config_sentence_transformers.json) and the licence (README front matter).
 * Rejects MODEL_FOLDER_INVALID saying what is missing.
 */
export function readFolderModel(folderName: string, picked: PickedFile[]): { entry: Omit<EncoderEntry, 'id' | 'files'>; keep: PickedFile[] } {
  const paths = stripTopFolder(picked.map((f) => f.path));
  const files = new Map(picked.map((f, i) => [paths[i], { ...f, path: paths[i] }]));
  if (!files.has('config.json')) throw invalid('config.json is missing');
  if (!files.has('tokenizer.json')) throw invalid('tokenizer.json is missing');
  const weights = ONNX_CHOICES.find((c) => files.has(c.file));
  if (!weights) throw invalid('no onnx/model.onnx, onnx/model_quantized.onnx or onnx/model_int8.onnx');
  const config = json(files.get('config.json'), 'config.json')!;
  const dim = num(config.hidden_size) ?? num(config.d_model) ?? num(config.n_embd) ?? num(config.dim);
  if (!dim) throw invalid('config.json names no hidden_size');
  const pool = json(files.get('1_Pooling/config.json'), '1_Pooling/config.json');
  const pooling: Pooling = pool?.pooling_mode_cls_token === true ? 'cls' : 'mean';
  const st = json(files.get('config_sentence_transformers.json'), 'config_sentence_transformers.json');
  const prompts = (st?.prompts ?? {}) as Record<string, unknown>;
  const readme = files.get('README.md');
  const licence = readme ? (/^license:\s*([\w.-]+)/m.exec(new TextDecoder().decode(readme.bytes.subarray(0, 4096)))?.[1] ?? '') : '';
  const name = folderName.trim() || 'My model';
  const keep = [...files.values()].filter((f) => KEEP.has(f.path) || f.path === weights.file);
  return {
    keep,
    entry: {
      label: name,
      name: `${name} (${weights.file})`,
      provenance: 'picked from a folder on this device',
      summary: 'A model you added from a folder on this device.',
      source: 'folder',
      runtime: 'transformers',
      dim,
      pooling,
      queryPrefix: str(prompts.query),
      documentPrefix: str(prompts.document ?? prompts.passage),
      dtype: weights.dtype,
      bytes: keep.reduce((n, f) => n + f.bytes.byteLength, 0),
      licence: licence || 'not stated',
      maxTokens: num(config.max_position_embeddings) ?? 512,
      folder: '',
    },
  };
}

/**
 * Keeps a picked folder's model: every kept file checksummed and stored. Its id carries the
 * weights' checksum, so the same folder picked twice is the same encoder and a changed one is not.
 */
export async function importFolderModel(
  folderName: string,
  picked: PickedFile[],
  opts: { storage: ModelCacheStorage; modelsBase: string },
): Promise<EncoderEntry> {
  const { entry, keep } = readFolderModel(folderName, picked);
  const sums = await Promise.all(keep.map((f) => sha256Hex(f.bytes)));
  const weights = keep.findIndex((f) => f.path.startsWith('onnx/'));
  const tag = sums[weights].slice(0, 12);
  const slug = `${(fnv1a(entry.label) >>> 0).toString(36)}-${tag}`;
  const full: EncoderEntry = {
    ...entry,
    id: `folder:${tag}/${entry.dtype}`,
    folder: `local/${slug}`,
    files: keep.map((f, i) => ({ path: f.path, sha256: sums[i], bytes: f.bytes.byteLength })),
  };
  const cache = await opts.storage.open(MODEL_CACHE_NAME);
  for (const f of keep) await putModelFile(cache, modelFileUrl(opts.modelsBase, full, f.path), f.bytes);
  return full;
}
