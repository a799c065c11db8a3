// The encoder catalogue: what the model manager shows (sizes, licences, dimensions, prefixes) and
// what may be downloaded (pinned revision and checksums), and a picked folder read by its files.
import { describe, expect, it } from 'vitest';
import { AppError } from '../core/errors';
import { BUNDLED_ENCODERS, DEFAULT_ENCODER_ID, HUB_ENCODERS, downloadable, findEncoder, hubEncoderId } from './catalogue';
import { importFolderModel, readFolderModel, stripTopFolder, type PickedFile } from './model-folder';
import { MODEL_CACHE_NAME } from './model-store';
import { createFakeCacheStorage } from '../testing/cache-storage';

const byRepo = (repo: string) => HUB_ENCODERS.find((e) => e.hub?.repo === repo)!;
const text = (path: string, s: string): PickedFile => ({ path, bytes: new TextEncoder().encode(s) });

describe('the catalogue', () => {
  it('lists the bundled MiniLM (the default) and USE-lite, and the five hub models of issue 8', () => {
    expect(BUNDLED_ENCODERS.map((e) => [e.id, e.dim])).toEqual([
      ['all-MiniLM-L6-v2-int8', 384],
      ['use-lite-en/v1', 512],
    ]);
    expect(DEFAULT_ENCODER_ID).toBe('all-MiniLM-L6-v2-int8');
    expect(HUB_ENCODERS.map((e) => e.hub!.repo)).toEqual([
      'Xenova/bge-small-en-v1.5',
      'Xenova/all-MiniLM-L6-v2',
      'Snowflake/snowflake-arctic-embed-xs',
      'Snowflake/snowflake-arctic-embed-s',
      'nomic-ai/nomic-embed-text-v1.5',
    ]);
    const ids = [...BUNDLED_ENCODERS, ...HUB_ENCODERS].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    // the dimension may change with the encoder: 384, 512 and 768 are all on offer
    expect(new Set([...BUNDLED_ENCODERS, ...HUB_ENCODERS].map((e) => e.dim))).toEqual(new Set([384, 512, 768]));
    for (const e of [...BUNDLED_ENCODERS, ...HUB_ENCODERS]) {
      expect(e.bytes, e.id).toBeGreaterThan(1_000_000);
      expect(e.licence, e.id).toMatch(/^(Apache-2\.0|MIT)$/);
      expect(e.summary.length, e.id).toBeGreaterThan(20);
    }
  });

  it('carries each model’s own instructions: bge and arctic prefix queries only, nomic both, MiniLM none', () => {
    const bge = byRepo('Xenova/bge-small-en-v1.5');
    expect([bge.queryPrefix, bge.documentPrefix, bge.pooling]).toEqual(['Represent this sentence for searching relevant passages: ', '', 'cls']);
    expect(byRepo('Snowflake/snowflake-arctic-embed-xs').queryPrefix).toBe(bge.queryPrefix);
    const nomic = byRepo('nomic-ai/nomic-embed-text-v1.5');
    expect([nomic.queryPrefix, nomic.documentPrefix, nomic.dim, nomic.pooling]).toEqual(['search_query: ', 'search_document: ', 768, 'mean']);
    const mini = byRepo('Xenova/all-MiniLM-L6-v2');
    expect([mini.queryPrefix, mini.documentPrefix, mini.dtype]).toEqual(['', '', 'fp32']);
  });

  it('offers a download only with a pinned commit and a pinned SHA-256 for every file', () => {
    expect(HUB_ENCODERS.filter(downloadable).map((e) => e.hub!.repo)).toEqual([
      'Xenova/bge-small-en-v1.5',
      'Xenova/all-MiniLM-L6-v2',
      'Snowflake/snowflake-arctic-embed-xs',
    ]);
    expect(downloadable(BUNDLED_ENCODERS[0])).toBe(false);
    // every downloadable model has the three files Transformers.js reads and one ONNX weights file
    for (const e of HUB_ENCODERS.filter(downloadable)) {
      const paths = e.files!.map((f) => f.path);
      expect(paths.slice(0, 2)).toEqual(['config.json', 'tokenizer.json']);
      expect(paths.filter((p) => p.startsWith('onnx/'))).toHaveLength(1);
    }
  });

  it('names a hub encoder by repository, pinned revision and weights, so a re-pin is another encoder', () => {
    expect(hubEncoderId('Xenova/bge-small-en-v1.5', 'ea104dacec62c0de699686887e3f920caeb4f3e3', 'q8')).toBe('hub:Xenova/bge-small-en-v1.5@ea104dacec62/q8');
    expect(byRepo('Xenova/bge-small-en-v1.5').id).toBe('hub:Xenova/bge-small-en-v1.5@ea104dacec62/q8');
    expect(findEncoder('hub:Xenova/bge-small-en-v1.5@ea104dacec62/q8')?.folder).toBe('hub/Xenova_bge-small-en-v1.5');
    expect(findEncoder('nope')).toBeUndefined();
  });
});

describe('a model from a picked folder', () => {
  const config = JSON.stringify({ model_type: 'bert', hidden_size: 768, max_position_embeddings: 2048 });
  const folder = (): PickedFile[] => [
    text('my-model/config.json', config),
    text('my-model/tokenizer.json', '{"model":{}}'),
    text('my-model/tokenizer_config.json', '{}'),
    text('my-model/1_Pooling/config.json', '{"pooling_mode_cls_token": true}'),
    text('my-model/config_sentence_transformers.json', '{"prompts":{"query":"query: ","document":"passage: "}}'),
    text('my-model/README.md', '---\nlicense: mit\n---\n# My model'),
    text('my-model/onnx/model.onnx', 'fp32 weights'),
    text('my-model/onnx/model_quantized.onnx', 'int8 weights'),
  ];

  it('drops the picked folder’s own name from the paths', () => {
    expect(stripTopFolder(['m/config.json', 'm/onnx/model.onnx'])).toEqual(['config.json', 'onnx/model.onnx']);
    expect(stripTopFolder(['config.json', 'onnx/model.onnx'])).toEqual(['config.json', 'onnx/model.onnx']);
  });

  it('reads dimension, pooling, prompts and licence from the files and prefers the int8 weights', () => {
    const { entry, keep } = readFolderModel('my-model', folder());
    expect(entry).toMatchObject({ dim: 768, pooling: 'cls', queryPrefix: 'query: ', documentPrefix: 'passage: ', licence: 'mit', dtype: 'q8', maxTokens: 2048, source: 'folder' });
    expect(keep.map((f) => f.path).sort()).toEqual(['config.json', 'onnx/model_quantized.onnx', 'tokenizer.json', 'tokenizer_config.json']);
  });

  it('refuses a folder without config.json, tokenizer.json or ONNX weights, saying which', () => {
    const without = (p: string) => folder().filter((f) => !f.path.endsWith(p));
    const why = (files: PickedFile[]) => {
      try {
        readFolderModel('x', files);
      } catch (e) {
        expect(e).toBeInstanceOf(AppError);
        expect((e as AppError).code).toBe('MODEL_FOLDER_INVALID');
        expect((e as AppError).message).toContain(`: ${(e as AppError).detail}. It needs config.json`); // the person reads what is missing
        return (e as AppError).detail;
      }
      return 'accepted';
    };
    expect(why(without('/config.json').filter((f) => !f.path.includes('Pooling')))).toMatch(/config\.json is missing/);
    expect(why(without('tokenizer.json'))).toMatch(/tokenizer\.json is missing/);
    expect(why(folder().filter((f) => !f.path.includes('onnx/')))).toMatch(/no onnx/);
    expect(why([text('config.json', '{"hidden_size": "big"}'), text('tokenizer.json', '{}'), text('onnx/model.onnx', 'w')])).toMatch(/hidden_size/);
  });

  it('keeps the files (checksummed) for offline use under an id that carries the weights’ checksum', async () => {
    const storage = createFakeCacheStorage();
    const e = await importFolderModel('my-model', folder(), { storage, modelsBase: 'https://app.test/models/' });
    expect(e.id).toMatch(/^folder:[0-9a-f]{12}\/q8$/);
    expect(e.files!.every((f) => /^[0-9a-f]{64}$/.test(f.sha256!))).toBe(true);
    expect(storage.keys(MODEL_CACHE_NAME)).toEqual(
      ['config.json', 'onnx/model_quantized.onnx', 'tokenizer.json', 'tokenizer_config.json'].map((f) => `https://app.test/models/${e.folder}/${f}`).sort(),
    );
    const again = await importFolderModel('my-model', folder(), { storage, modelsBase: 'https://app.test/models/' });
    expect(again.id).toBe(e.id);
  });
});

describe("the core's calibration ids", () => {
  it('name the encoders src/embed builds (the core cannot import them)', async () => {
    const { MINILM_CALIBRATION_ID, USE_LITE_CALIBRATION_ID, MPNET_JUDGE_CALIBRATION_ID, calibrationFor } = await import('../core/pipeline');
    const { MINILM, USE_LITE, MPNET_JUDGE } = await import('./encoders');
    expect([MINILM_CALIBRATION_ID, USE_LITE_CALIBRATION_ID, MPNET_JUDGE_CALIBRATION_ID]).toEqual([MINILM.id, USE_LITE.id, MPNET_JUDGE.id]);
    expect(calibrationFor(MINILM.id).judge).toEqual({ id: MPNET_JUDGE.id, depth: 30, weight: 0.25 });
    expect(calibrationFor(USE_LITE.id).judge).toBeUndefined();
  });
});
