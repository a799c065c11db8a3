// Dense vectors: the per-space store (int8 + exact f32 rescoring), its kernels and the neighbour
// lists of the associative walk. See README.md.
export { DenseStore, type DenseWatcher, type StoreParts, type DenseHit, type DenseScanOptions, type DenseStoreOptions, type PreparedQuery } from './store';
export { dequantise, dotErrorBound, INT8_MAX, quantiseInto, type Quantised } from './quantize';
export { dotF32, dotI8, KthLargest } from './kernels';
export { NeighbourLists, type NeighbourStats } from './neighbours';
export { simdAvailable, strideOf } from './simd';
export { AnnIndex, DEFAULT_ANN_THRESHOLD, type AnnOptions, type AnnParams, type AnnState, type AnnStatus } from './ann';
export { IvfModel } from './ivf';
export { searchAmong } from './among';
