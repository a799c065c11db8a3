// A judge client for tests (src/bridge/judge-bridge.ts's interface): ready at once, each text's
// vector from `vectorOf`, every embed call's texts recorded in `calls`.
import type { JudgeClient, JudgeLoadState } from '../bridge/judge-bridge';

export function fakeJudgeClient(id: string, vectorOf: (text: string) => Float32Array, loadMs = 1): { client: JudgeClient; calls: string[][] } {
  const calls: string[][] = [];
  let state: JudgeLoadState = { state: 'idle' };
  const listeners = new Set<(s: JudgeLoadState) => void>();
  const client: JudgeClient = {
    async ready() {
      const info = { id, name: 'MPNet', dim: 2, backend: 'wasm' as const, maxInputChars: 0 };
      state = { state: 'ready', info, loadMs };
      for (const l of listeners) l(state);
      return info;
    },
    async embed(texts) {
      calls.push(texts);
      return texts.map(vectorOf);
    },
    state: () => state,
    onState(l) {
      listeners.add(l);
      l(state);
      return () => listeners.delete(l);
    },
    dispose() {},
  };
  return { client, calls };
}
