import { EngineCore } from '/work/wt-lexsnap/workers/engine-core';
import { adoptSnapshot, packWords } from '/work/wt-lexsnap/workers/engine-lexical';
import { checksumOf, unpackDocs } from '/work/wt-lexsnap/src/core/lexical-snapshot';
import { Bm25Index } from '/work/wt-lexsnap/src/core/bm25';
import { corpus } from '/work/wt-lexsnap/scripts/bench/recall';
const n = 100000;
const c = corpus(n, 0, 8);
const docs = c.docs.map((d) => ({ id: d.id, text: d.text, tags: d.tags, importance: d.importance, createdAt: d.createdAt, validFrom: d.createdAt, validTo: null, status: 'active' as const, deletedAt: null, sessionId: d.sessionId }));
const built = new EngineCore(); built.load(docs, { dim: 8 });
const s = packWords(built);
const t = (name: string, f: () => unknown) => { const t0 = performance.now(); const r = f(); console.log(name, Math.round(performance.now() - t0)); return r; };
for (let i = 0; i < 2; i++) {
  const c2 = t('clone', () => structuredClone(s)) as typeof s;
  t('checksum', () => checksumOf(c2));
  t('bm25 unpack', () => Bm25Index.unpack(c2.bm25));
  t('unpackDocs', () => unpackDocs(c2));
  t('adopt total', () => adoptSnapshot(new EngineCore(), c2, { dim: 8 }));
}
