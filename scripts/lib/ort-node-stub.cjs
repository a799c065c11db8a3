// Stands in for onnxruntime-node when its native binding is missing (see node-transformers.ts):
// Transformers.js requires it at import time even when onnxruntime-web is injected instead.
module.exports = {};
