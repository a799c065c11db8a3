// E10: what the encoder sees of a memory's attached media: captions and alt texts.

export interface MediaText {
  caption?: string;
  alt?: string;
}

/** One text per attachment that has any words; empty -> E10 absent. */
export function mediaTexts(media: readonly MediaText[] | undefined): string[] {
  if (!media) return [];
  return media
    .map((m) => [m.caption, m.alt].filter((s): s is string => !!s && s.trim().length > 0).join('. ').trim())
    .filter((s) => s.length > 0);
}

/** Mean of unit vectors, renormalised (E5, E10 pooling). */
export function meanVector(vectors: readonly Float32Array[]): Float32Array | undefined {
  if (!vectors.length) return undefined;
  const out = new Float32Array(vectors[0].length);
  for (const v of vectors) for (let i = 0; i < out.length; i++) out[i] += v[i];
  let n = 0;
  for (let i = 0; i < out.length; i++) n += out[i] * out[i];
  n = Math.sqrt(n);
  if (!(n > 0)) return undefined;
  for (let i = 0; i < out.length; i++) out[i] /= n;
  return out;
}
