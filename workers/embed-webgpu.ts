// Whether this browser has a WebGPU adapter worth trying (the embed worker's runtimes share the
// rule: src/embed/webgpu-choice.ts). Reads navigator.gpu; starts no runtime.
import { failureText, webGpuDeclined, type AdapterFacts } from '../src/embed/webgpu-choice';

interface GpuAdapterLike {
  info?: AdapterFacts;
  /** Chromium before GPUAdapterInfo.isFallbackAdapter. */
  isFallbackAdapter?: boolean;
}

/** Null when WebGPU may be tried here, else why not. `allowSoftware` (asked for explicitly) accepts a software adapter. */
export async function probeWebGpu(allowSoftware: boolean): Promise<string | null> {
  const gpu = (navigator as Navigator & { gpu?: { requestAdapter(): Promise<GpuAdapterLike | null> } }).gpu;
  if (!gpu) return 'this browser has no WebGPU';
  try {
    const adapter = await gpu.requestAdapter();
    // GPUAdapterInfo fields are prototype getters: read them one by one (a spread sees none).
    const info = adapter?.info;
    const facts = adapter && {
      vendor: info?.vendor,
      architecture: info?.architecture,
      isFallbackAdapter: info?.isFallbackAdapter ?? adapter.isFallbackAdapter,
    };
    return webGpuDeclined(facts, allowSoftware);
  } catch (e) {
    return `WebGPU did not start (${failureText(e)})`;
  }
}

/** Runs `building` within `budgetMs`; on timeout a late result is disposed rather than leaked. */
export async function withinBudget<T>(building: Promise<T>, budgetMs: number, dispose: (late: T) => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      building,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`WebGPU warm-up timed out after ${budgetMs} ms`)), budgetMs);
      }),
    ]);
  } catch (e) {
    building.then(dispose, () => undefined);
    throw e;
  } finally {
    clearTimeout(timer);
  }
}
