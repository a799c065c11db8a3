// The engine for tests: documents as the services send them, and engine "workers" on a
// MessageChannel running the real engine API (so Comlink and transfer are exercised).
import { serializeSpace } from '../core/spaces';
import type { EngineDoc } from '../protocol/engine';
import { EngineCore } from '../../workers/engine-core';
import { createEngineApi } from '../../workers/engine-api';
import { createEngineBridge, type EngineClient, type EngineSnapshot } from '../bridge/engine-bridge';
import { channelWorkers, type ChannelWorkers } from './channel-worker';
import { gate } from './gate';

/** A memory as the services send it to the engine: its vector, if any, is its E1 feature. */
export function engineDoc(id: string, text: string, vector: number[] | null = null): EngineDoc {
  return {
    id,
    text,
    tags: [],
    importance: 0.5,
    createdAt: 1,
    validFrom: 1,
    validTo: null,
    status: 'active',
    ...(vector ? { features: { E1: serializeSpace('E1', new Float32Array(vector)) } } : {}),
  };
}

export interface EngineWorkers extends ChannelWorkers {
  /** The engine of each worker, in start order. */
  cores: EngineCore[];
  /** Resolves when the first search reaches a worker (only with `beforeSearch`). */
  searchEntered: Promise<void>;
}

/** Engine workers; `beforeSearch` runs in the worker before each search (e.g. to hold it there). */
export function engineWorkers(hooks: { beforeSearch?: () => Promise<void> } = {}): EngineWorkers {
  const entered = gate();
  const cores: EngineCore[] = [];
  const { spawn, workers } = channelWorkers(() => {
    const core = new EngineCore();
    cores.push(core);
    const api = createEngineApi(core);
    const { beforeSearch } = hooks;
    if (beforeSearch) {
      const search = api.search;
      api.search = async (...args) => {
        entered.open();
        await beforeSearch();
        return search(...args);
      };
    }
    return api;
  });
  return { spawn, workers, cores, searchEntered: entered.opened };
}

export interface ChannelEngine {
  /** For initServices' / createServices' `engine` option. */
  factory: (source: () => Promise<EngineSnapshot>) => EngineClient;
  cores: EngineCore[];
  /** Simulates the newest worker dying. */
  crash(): void;
}

export function createChannelEngine(): ChannelEngine {
  const { spawn, workers, cores } = engineWorkers();
  return {
    factory: (source) => createEngineBridge({ source, spawn, awaitWarm: true }),
    cores,
    crash: () => workers.at(-1)?.crash('simulated crash'),
  };
}
