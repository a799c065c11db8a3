import { describe, expect, it } from 'vitest';
import { failureText, fallbackMessage, webGpuDeclined } from './webgpu-choice';

describe('webGpuDeclined', () => {
  it('declines when there is no adapter, whatever was asked', () => {
    expect(webGpuDeclined(null, false)).toBe('no WebGPU adapter');
    expect(webGpuDeclined(undefined, true)).toBe('no WebGPU adapter');
  });

  it('declines a software fallback adapter in auto mode and names it', () => {
    // What Chromium reports for SwiftShader.
    const swiftshader = { isFallbackAdapter: true, vendor: 'google', architecture: 'swiftshader' };
    expect(webGpuDeclined(swiftshader, false)).toBe(
      'the WebGPU adapter is a software fallback (google swiftshader), slower than WASM',
    );
    expect(webGpuDeclined({ isFallbackAdapter: true, vendor: '', architecture: '' }, false)).toBe(
      'the WebGPU adapter is a software fallback (unnamed), slower than WASM',
    );
  });

  it('accepts a software adapter when WebGPU was asked for, and any hardware adapter', () => {
    expect(webGpuDeclined({ isFallbackAdapter: true, architecture: 'swiftshader' }, true)).toBeNull();
    expect(webGpuDeclined({ isFallbackAdapter: false, vendor: 'intel', architecture: 'gen-12lp' }, false)).toBeNull();
    // Older browsers without the flag: nothing says it is software, so it is tried.
    expect(webGpuDeclined({}, false)).toBeNull();
  });
});

describe('failureText', () => {
  it('keeps the name of a DOMException-like error and the plain message of an Error', () => {
    const abort = { name: 'AbortError', message: "Failed to execute 'mapAsync' on 'GPUBuffer': gone." };
    expect(failureText(abort)).toBe("AbortError: Failed to execute 'mapAsync' on 'GPUBuffer': gone.");
    expect(failureText(new Error('WebGPU warm-up timed out'))).toBe('WebGPU warm-up timed out');
    expect(failureText(new TypeError('x is undefined'))).toBe('TypeError: x is undefined');
  });

  it('turns anything else into one bounded line', () => {
    expect(failureText('line one\n  line two')).toBe('line one line two');
    expect(failureText(42)).toBe('42');
    expect(failureText(new Error(''))).toBe('unknown error');
    const long = failureText('y'.repeat(500), 10);
    expect(long).toBe('yyyyyyyyy…');
    expect(long).toHaveLength(10);
  });
});

describe('fallbackMessage', () => {
  it('says WebGPU was not used, why, and what runs instead', () => {
    expect(fallbackMessage('no WebGPU adapter')).toBe('WebGPU not used: no WebGPU adapter. Using WASM.');
  });
});
