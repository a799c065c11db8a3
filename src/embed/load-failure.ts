// Why a meaning model could not be loaded or kept, in plain words (issue 12, point 11). The
// worker's failures arrive as technical text (a Transformers.js "Could not locate file", an
// onnxruntime protobuf error, a DOMException's name); a person reads one sentence saying what
// happened and that search goes on by keywords. Pure: no runtime, no DOM.

export type ModelFailureKind = 'storage-full' | 'missing' | 'damaged' | 'offline' | 'stalled' | 'other';

/** The kind of failure named by a technical detail (an error's name and message). */
export function modelFailureKind(detail: string): ModelFailureKind {
  const d = detail.toLowerCase();
  if (/quota|storage (is )?full|no space|disk full/.test(d)) return 'storage-full';
  if (/stalled|no data for/.test(d)) return 'stalled';
  if (/\b404\b|not found|could not locate|missing/.test(d)) return 'missing';
  if (/protobuf|failed to load model|invalid model|corrupt|damaged|checksum|unexpected end|parse|magic|unrecognized|sha-256/.test(d)) return 'damaged';
  if (/network|failed to fetch|offline|connection|load failed/.test(d)) return 'offline';
  return 'other';
}

const WHY: Record<ModelFailureKind, string> = {
  'storage-full': 'storage is full',
  missing: 'one of its files is missing from this copy of the app',
  damaged: 'one of its files is damaged',
  offline: 'its files could not be fetched (the connection failed)',
  stalled: 'its files stopped arriving',
  other: 'it failed to start in this browser',
};

/** The reason alone, for "… couldn't be loaded: <reason>". */
export function modelFailureReason(kind: ModelFailureKind): string {
  return WHY[kind];
}

/** The sentence the model status shows when no meaning model runs: what happened, and what still works. */
export function modelUnavailableText(kind: ModelFailureKind): string {
  const head = kind === 'storage-full' ? "The meaning model couldn't be stored on this device" : "The meaning model couldn't be loaded";
  const tail = kind === 'storage-full' || kind === 'other' ? 'Search works by keywords.' : 'Search works by keywords; reload to try again.';
  return `${head}: ${WHY[kind]}. ${tail}`;
}
