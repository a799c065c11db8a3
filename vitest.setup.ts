// Same polyfill inside the test workers (see vitest.config.ts).
const M = Map as unknown as { groupBy?: unknown };
if (typeof M.groupBy !== 'function') {
  M.groupBy = function groupBy<K, T>(items: Iterable<T>, key: (item: T, i: number) => K) {
    const out = new Map<K, T[]>();
    let i = 0;
    for (const item of items) {
      const k = key(item, i++);
      const list = out.get(k);
      if (list) list.push(item);
      else out.set(k, [item]);
    }
    return out;
  };
}
export {};
