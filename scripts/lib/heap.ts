// The process's live memory after garbage collection, for the engine-memory figures (issue 13).
//
// Two traps measured while writing docs/benchmarks.md's breakdown: (1) freed ArrayBuffers leave
// `external` / `arrayBuffers` only when their backing stores are swept, which V8 does on another
// thread after gc() returns, so a figure read at once still counts garbage (hundreds of MiB right
// after the features were dropped); (2) `arrayBuffers` leaves out WebAssembly memories, where the
// dense store keeps its int8 codes. So: gc, yield to the event loop, repeat until two readings
// agree, and count heapUsed + external (external includes arrayBuffers and the wasm memories).
// Run node with --expose-gc.

import { setTimeout as sleep } from 'node:timers/promises';

export interface HeapReading {
  /** heapUsed + external: V8's objects, every ArrayBuffer's backing store, the wasm memories. */
  bytes: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
}

export function hasGc(): boolean {
  return typeof (globalThis as { gc?: unknown }).gc === 'function';
}

export async function settledHeap(): Promise<HeapReading> {
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  let last = -1;
  let m = process.memoryUsage();
  for (let i = 0; i < 12; i++) {
    gc();
    await sleep(40);
    m = process.memoryUsage();
    const bytes = m.heapUsed + m.external;
    if (Math.abs(bytes - last) < 256 * 1024) break;
    last = bytes;
  }
  return { bytes: m.heapUsed + m.external, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
}
