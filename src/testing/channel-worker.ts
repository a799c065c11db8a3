// Test "workers" for Node: an API exposed with Comlink on one end of a MessageChannel, so every call
// really crosses a port (structured clone, transfer) as it does to a Worker, and the test can make
// the worker crash.
import * as Comlink from 'comlink';
import type { WorkerHandle } from '../bridge/worker-lifecycle';

export interface ChannelWorker {
  /** Reports the worker dead, as a real one's `error` / `messageerror` event does. */
  crash(detail: string): void;
  terminated: boolean;
}

export interface ChannelWorkers {
  /** For the bridges' and WorkerLifecycle's `spawn` option. */
  spawn: () => WorkerHandle;
  /** Every worker started so far, oldest first. */
  workers: ChannelWorker[];
}

/**
 * Each spawn exposes `makeApi(worker)`; an API method may call `worker.crash(...)` to die while it
 * runs. `makeApi` returning undefined makes a worker that never answers.
 */
export function channelWorkers(makeApi: (worker: ChannelWorker) => object | undefined): ChannelWorkers {
  const workers: ChannelWorker[] = [];
  const spawn = (): WorkerHandle => {
    const { port1, port2 } = new MessageChannel();
    let onCrash: (detail: string) => void = () => undefined;
    const worker: ChannelWorker = { crash: (detail) => onCrash(detail), terminated: false };
    workers.push(worker);
    const api = makeApi(worker);
    if (api) Comlink.expose(api, port2);
    return {
      port: port1,
      terminate: () => {
        worker.terminated = true;
        port1.close();
        port2.close();
      },
      onCrash: (cb) => {
        onCrash = cb;
      },
    };
  };
  return { spawn, workers };
}
