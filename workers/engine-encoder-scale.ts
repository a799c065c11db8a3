// The associative step's default minimum cosine (0.72) was set on USE-lite's scale; unless the
// person set one, it moves to the scale of the encoder whose vectors the engine holds (0.587 for
// MiniLM: the same share of memory pairs clears it, src/embed/encoders.ts `cosineKnots`).
import { BASE_DEFAULTS, type RecallOptionsInput } from '../src/core/recall';
import { encoderMeta, onEncoderScale } from '../src/embed/encoders';

export function withEncoderMinCosine(input: RecallOptionsInput, encoder: string | undefined): RecallOptionsInput {
  const meta = encoder ? encoderMeta(encoder) : undefined;
  if (!meta || input.minCosine !== undefined) return input;
  return { ...input, minCosine: onEncoderScale(meta, BASE_DEFAULTS.minCosine) };
}
