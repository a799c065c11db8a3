// Whether the embed worker should try WebGPU on the adapter it found, and how a failed attempt
// is worded in the load progress. Pure: the worker hands in what it read from navigator.gpu.
//
// Measured in headless Chromium 156 on SwiftShader (the software "fallback adapter", 2 cores):
// WebGPU reaches ready in about 10 s against 3.5 s on WASM, and embeds 0.7 texts/s against
// 23 texts/s at batch 1 (about 30x slower), with the same vectors. So 'auto' declines a
// software adapter; asking for WebGPU explicitly still uses it.

/** What the worker read from a GPUAdapter (`adapter.info`, or the older `adapter.isFallbackAdapter`). */
export interface AdapterFacts {
  isFallbackAdapter?: boolean;
  vendor?: string;
  architecture?: string;
}

/**
 * Null when WebGPU may be tried on this adapter, else why not (shown in the load progress).
 * `allowSoftware` is true when WebGPU was asked for explicitly.
 */
export function webGpuDeclined(adapter: AdapterFacts | null | undefined, allowSoftware: boolean): string | null {
  if (!adapter) return 'no WebGPU adapter';
  if (adapter.isFallbackAdapter === true && !allowSoftware) {
    const name = [adapter.vendor, adapter.architecture].filter((s) => s).join(' ') || 'unnamed';
    return `the WebGPU adapter is a software fallback (${name}), slower than WASM`;
  }
  return null;
}

/** One line for a failure of any shape (Error, DOMException, string, other), at most `max` characters. */
export function failureText(e: unknown, max = 300): string {
  let text: string;
  if (e instanceof Error || (typeof e === 'object' && e !== null && typeof (e as Error).message === 'string')) {
    const { name, message } = e as Error;
    text = name && name !== 'Error' ? `${name}: ${message}` : message;
  } else {
    text = String(e);
  }
  text = text.replace(/\s+/g, ' ').trim() || 'unknown error';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The progress message when 'auto' moves to WASM. */
export function fallbackMessage(reason: string): string {
  return `WebGPU not used: ${reason}. Using WASM.`;
}
