// The eval's app row takes the judge only when the encoder's calibration names one, the person did
// not say --no-judge, and the judge's folder is built; otherwise it says why (--json's `judge`).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { calibrationFor, NEUTRAL_CALIBRATION } from '../../src/core/pipeline';
import { MPNET_JUDGE } from '../../src/embed/encoders';

const dir = mkdtempSync(join(tmpdir(), 'judge-models-'));
process.env.MNEMOGRAPH_MODELS_DIR = dir; // read when node-transformers is first imported, below
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const { appJudge, judgeModelFile } = await import('./eval-judge');

describe('the eval judge', () => {
  it('finds the int8 graph only when the folder has its config and onnx/model_quantized.onnx', () => {
    expect(judgeModelFile(MPNET_JUDGE, dir)).toBeUndefined();
    mkdirSync(join(dir, 'all-mpnet-base-v2-int8', 'onnx'), { recursive: true });
    writeFileSync(join(dir, 'all-mpnet-base-v2-int8', 'onnx', 'model_quantized.onnx'), 'x');
    expect(judgeModelFile(MPNET_JUDGE, dir)).toBeUndefined(); // no config.json yet
    writeFileSync(join(dir, 'all-mpnet-base-v2-int8', 'config.json'), '{}');
    expect(judgeModelFile(MPNET_JUDGE, dir)).toBe(join(dir, 'all-mpnet-base-v2-int8', 'onnx', 'model_quantized.onnx'));
    rmSync(join(dir, 'all-mpnet-base-v2-int8'), { recursive: true });
  });

  it('says why the app row has no judge: none calibrated, --no-judge, or not built', async () => {
    const log = () => {};
    expect((await appJudge([], NEUTRAL_CALIBRATION, true, log)).use).toEqual({ applied: false, reason: 'the encoder has no judge in its calibration' });
    const minilm = calibrationFor('all-MiniLM-L6-v2-int8');
    expect(minilm.judge).toEqual({ id: 'all-mpnet-base-v2-int8', depth: 30, weight: 0.25 });
    expect((await appJudge([], minilm, false, log)).use).toEqual({ applied: false, id: 'all-mpnet-base-v2-int8', reason: '--no-judge' });
    const missing = await appJudge([], minilm, true, log);
    expect(missing.vectors).toBeUndefined();
    expect(missing.use).toMatchObject({ applied: false, id: 'all-mpnet-base-v2-int8' });
    expect(missing.use.applied === false && missing.use.reason).toMatch(/no all-mpnet-base-v2-int8 folder .*prepare-assets/);
  });
});
