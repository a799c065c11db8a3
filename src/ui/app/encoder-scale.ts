// Cosine cut-offs the UI applies (a meaning "close" enough to show, a chain step worth showing)
// were set on USE-lite's scale; another encoder's cosines run on a scale of their own (MiniLM's
// lower: the same share of memory pairs clears 0.3 on USE-lite and 0.145 on MiniLM, measured on
// the sample, src/embed/encoders.ts `cosineKnots`). The page follows the encoder in use (boot sets
// it as the model reports) and moves each cut-off to its scale; with no encoder known yet, or one
// without knots, the cut-offs stay as written.
import { encoderMeta, onEncoderScale } from '../../embed/encoders';

let active: string | undefined;

/** The encoder whose vectors the engine holds (boot follows the model's progress reports). */
export function setActiveEncoder(id: string | undefined): void {
  active = id;
}

/** A cosine cut-off set on USE-lite's scale, moved to the active encoder's scale. */
export function onActiveScale(useLiteCosine: number): number {
  const meta = active ? encoderMeta(active) : undefined;
  return meta ? onEncoderScale(meta, useLiteCosine) : useLiteCosine;
}
