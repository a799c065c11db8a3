// E8: emotional valence / arousal, after VADER (Hutto & Gilbert 2014) with the AFINN-165
// valences as a second opinion. Lexicons are passed in (built into public/generated/lexicon.json).
// Handled: negation in the 3 preceding words (x -0.74), boosters / dampeners ("very", "barely"),
// ALL-CAPS emphasis, "but" (before x0.5, after x1.5), "!" amplification.
// Vector: [positive, negative, compound, afinn, arousal x 0.5]. Absent when no word carries affect.

import type { LexicalResources } from './resources';

const NEGATE = new Set(
  "aint arent cannot cant couldnt darent didnt doesnt dont hadnt hasnt havent isnt mightnt mustnt neither never no nobody none nope nor not nothing nowhere oughtnt shant shouldnt wasnt werent without wont wouldnt rarely seldom despite".split(' '),
);
const B_INCR = 0.293;
const B_DECR = -0.293;
const BOOSTERS = new Map<string, number>([
  ...'absolutely amazingly awfully completely considerably decidedly deeply enormously entirely especially exceptionally extremely fabulously flipping fully greatly hella highly hugely incredibly intensely majorly more most particularly purely quite really remarkably so substantially thoroughly totally tremendously uber unbelievably unusually utterly very'
    .split(' ')
    .map((w) => [w, B_INCR] as [string, number]),
  ...'almost barely hardly just enough kind of kinda kindof less little marginally occasionally partly scarcely slightly somewhat sort sorta sortof'
    .split(' ')
    .map((w) => [w, B_DECR] as [string, number]),
]);
const CAPS_INCR = 0.733;
const NEGATION_SCALAR = -0.74;
const ALPHA = 15; // VADER's compound normalisation

export const EMOTION_DIM = 5;
export const AROUSAL_WEIGHT = 0.5;

export interface EmotionScores {
  positive: number;
  negative: number;
  compound: number; // [-1, 1]
  afinn: number; // [-1, 1]
  arousal: number; // [0, 1]
  hits: number;
}

const normalize = (score: number, alpha = ALPHA) => score / Math.sqrt(score * score + alpha);

function words(text: string): string[] {
  return text
    .split(/\s+/)
    .map((w) => w.replace(/^[^\w]+|[^\w!?]+$/g, '').replace(/[!?]+$/, '').replace(/['’]/g, ''))
    .filter(Boolean);
}

export function emotionScores(text: string, lex: Pick<LexicalResources, 'vader' | 'afinn'>): EmotionScores {
  const ws = words(text);
  const lower = ws.map((w) => w.toLowerCase());
  const allCaps = ws.every((w) => w === w.toUpperCase());
  const butAt = lower.indexOf('but');
  const sentiments: number[] = [];
  let afinnSum = 0;
  let hits = 0;
  let magnitude = 0;
  for (let i = 0; i < ws.length; i++) {
    const w = lower[i];
    let v = lex.vader.get(w);
    const a = lex.afinn.get(w);
    if (v === undefined && a === undefined) continue;
    if (BOOSTERS.has(w) && v === undefined) continue; // boosters modify, they are not sentiment
    hits++;
    v ??= (a as number) * 0.8; // AFINN (-5..5) to VADER's (-4..4) scale
    if (/[A-Z]/.test(ws[i]) && ws[i] === ws[i].toUpperCase() && !allCaps && ws[i].length > 1) {
      v += v > 0 ? CAPS_INCR : -CAPS_INCR;
    }
    let negated = false;
    for (let k = 1; k <= 3 && i - k >= 0; k++) {
      const prev = lower[i - k];
      const b = BOOSTERS.get(prev);
      if (b !== undefined) {
        const decay = k === 1 ? 1 : k === 2 ? 0.95 : 0.9;
        v += (v > 0 ? b : -b) * decay;
      }
      if (NEGATE.has(prev)) negated = true;
    }
    if (negated) v *= NEGATION_SCALAR;
    if (butAt >= 0) v *= i < butAt ? 0.5 : i > butAt ? 1.5 : 1;
    sentiments.push(v);
    magnitude += Math.abs(v);
    if (a !== undefined) afinnSum += negated ? -a : a;
  }
  if (hits === 0) return { positive: 0, negative: 0, compound: 0, afinn: 0, arousal: 0, hits: 0 };
  let sum = sentiments.reduce((s, x) => s + x, 0);
  const bangs = Math.min(4, (text.match(/!/g) ?? []).length);
  const amp = bangs * 0.292;
  if (sum > 0) sum += amp;
  else if (sum < 0) sum -= amp;
  let pos = 0;
  let neg = 0;
  for (const s of sentiments) {
    if (s > 0) pos += s + 1;
    else if (s < 0) neg += s - 1;
  }
  const neutral = Math.max(0, ws.length - sentiments.length);
  const total = pos + Math.abs(neg) + neutral;
  return {
    positive: total > 0 ? pos / total : 0,
    negative: total > 0 ? Math.abs(neg) / total : 0,
    compound: normalize(sum),
    afinn: normalize(afinnSum, 16),
    // intensity of the affect words on VADER's 0..4 scale, raised by "!"
    arousal: Math.min(1, magnitude / sentiments.length / 4 + bangs * 0.05),
    hits,
  };
}

export function emotionFeatures(text: string, lex: Pick<LexicalResources, 'vader' | 'afinn'>): Float32Array | undefined {
  const s = emotionScores(text, lex);
  if (s.hits === 0) return undefined;
  // arousal at half weight: it is shared by joy and anger, so at full weight it would pull
  // opposite valences together
  return Float32Array.from([s.positive, s.negative, s.compound, s.afinn, s.arousal * AROUSAL_WEIGHT]);
}
