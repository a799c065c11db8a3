import { describe, expect, it } from 'vitest';
import { modelFailureKind, modelUnavailableText } from './load-failure';

describe('modelFailureKind', () => {
  it('names the failures the worker meets, from their technical text', () => {
    expect(modelFailureKind('QuotaExceededError: The quota has been exceeded.')).toBe('storage-full');
    expect(modelFailureKind('all-MiniLM-L6-v2-int8 on wasm: Could not locate file: "/models/all-MiniLM-L6-v2-int8/onnx/model_quantized.onnx".')).toBe('missing');
    expect(modelFailureKind('use-lite: HTTP 404 for /models/use-lite/model.json')).toBe('missing');
    expect(modelFailureKind("all-MiniLM-L6-v2-int8 on wasm: Can't create a session. ERROR_CODE: 7, ERROR_MESSAGE: Failed to load model because protobuf parsing failed.")).toBe('damaged');
    expect(modelFailureKind('TypeError: Failed to fetch')).toBe('offline');
    expect(modelFailureKind('stalled: no data for 60 s from model_quantized.onnx')).toBe('stalled');
    expect(modelFailureKind('RuntimeError: memory access out of bounds')).toBe('other');
  });
});

describe('the plain sentences', () => {
  it('say what happened and that search goes on by keywords', () => {
    expect(modelUnavailableText('storage-full')).toBe("The meaning model couldn't be stored on this device: storage is full. Search works by keywords.");
    expect(modelUnavailableText('missing')).toBe(
      "The meaning model couldn't be loaded: one of its files is missing from this copy of the app. Search works by keywords; reload to try again.",
    );
  });
});
