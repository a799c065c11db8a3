// The scoring core's public surface. Everything here is pure and runs in Node and in workers.
export * from './types';
export * from './errors';
export * from './spaces';
export * from './recall';
// Tag derivation has its own (broader) stopword list; the text one is the BM25 one.
export { deriveTags, DEFAULT_TAG_LIMIT, type DeriveTagsOptions } from './tags';
export * from './text';
export * from './bm25';
export * from './fusion';
// recall's heap shares the same ordering (score desc, id asc); the core's generic top-k is exported by name.
export { TopK, topK, topKIndices } from './topk';
export * from './hybrid';
export * from './status';
export * from './ids';
export * from './validate';
// The dense-vector helpers; `cosine` itself is the spaces' cosine similarity (cosine([1,0,0], [1,0,0]) = 1).
export { dot, dotRow, norm, normalize, isFiniteVector, unitL2Distance, cosine as cosineDense } from './vector';
