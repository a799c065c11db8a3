// How a worker's API answers failures: every method rejects with a plain ErrorEnvelope (which
// survives structured cloning and Comlink unchanged), never with a bare Error. The client side
// (src/bridge/worker-lifecycle.ts) turns envelopes back into AppErrors with the same toAppError.

import { toEnvelope, type ErrorCode } from '../core/errors';

type Fn = (...args: never[]) => unknown;

/** The API as the client awaits it: every method async. */
export type Guarded<T extends Record<string, Fn>> = {
  [K in keyof T]: (...args: Parameters<T[K]>) => Promise<Awaited<ReturnType<T[K]>>>;
};

/** Wraps every method so a failure leaves the worker as an envelope (`fallback` for non-AppErrors). */
export function guardApi<T extends Record<string, Fn>>(fns: T, fallback: ErrorCode): Guarded<T> {
  const out = {} as Record<string, unknown>;
  for (const [name, fn] of Object.entries(fns)) {
    out[name] = async (...args: never[]) => {
      try {
        return await fn(...args);
      } catch (e) {
        throw toEnvelope(e, fallback);
      }
    };
  }
  return out as Guarded<T>;
}
