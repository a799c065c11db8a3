// The Porter stemming algorithm (M.F. Porter, "An algorithm for suffix stripping", 1980),
// written from the paper's rule tables. Input: one lowercase ASCII word; anything else
// (digits, non-ASCII letters, words of <= 2 letters) is returned unchanged, so the stemmer
// never mangles names in other scripts or numbers.

const ASCII_WORD = /^[a-z]+$/;

function isConsonant(w: string, i: number): boolean {
  const c = w.charCodeAt(i);
  // a e i o u
  if (c === 97 || c === 101 || c === 105 || c === 111 || c === 117) return false;
  if (c === 121) return i === 0 ? true : !isConsonant(w, i - 1); // y
  return true;
}

/** m(): the number of VC sequences in w[0..end). */
function measure(w: string, end: number): number {
  let n = 0;
  let i = 0;
  while (i < end && isConsonant(w, i)) i++;
  while (i < end) {
    while (i < end && !isConsonant(w, i)) i++;
    if (i >= end) break;
    while (i < end && isConsonant(w, i)) i++;
    n++;
  }
  return n;
}

function hasVowel(w: string, end: number): boolean {
  for (let i = 0; i < end; i++) if (!isConsonant(w, i)) return true;
  return false;
}

function endsDoubleConsonant(w: string): boolean {
  const n = w.length;
  return n >= 2 && w[n - 1] === w[n - 2] && isConsonant(w, n - 1);
}

/** *o: stem ends cvc, where the final c is not w, x or y. */
function endsCvc(w: string, end: number): boolean {
  if (end < 3) return false;
  if (!isConsonant(w, end - 1) || isConsonant(w, end - 2) || !isConsonant(w, end - 3)) return false;
  const c = w[end - 1];
  return c !== 'w' && c !== 'x' && c !== 'y';
}

/** Replace suffix `s` by `r` when the remaining stem has m() > minM. Returns null when `w` does not end in `s`. */
function replaceIf(w: string, s: string, r: string, minM: number): string | null {
  if (!w.endsWith(s)) return null;
  const stemEnd = w.length - s.length;
  return measure(w, stemEnd) > minM ? w.slice(0, stemEnd) + r : w;
}

const STEP2: [string, string][] = [
  ['ational', 'ate'], ['tional', 'tion'], ['enci', 'ence'], ['anci', 'ance'], ['izer', 'ize'],
  ['bli', 'ble'], ['alli', 'al'], ['entli', 'ent'], ['eli', 'e'], ['ousli', 'ous'],
  ['ization', 'ize'], ['ation', 'ate'], ['ator', 'ate'], ['alism', 'al'], ['iveness', 'ive'],
  ['fulness', 'ful'], ['ousness', 'ous'], ['aliti', 'al'], ['iviti', 'ive'], ['biliti', 'ble'],
  ['logi', 'log'],
];
const STEP3: [string, string][] = [
  ['icate', 'ic'], ['ative', ''], ['alize', 'al'], ['iciti', 'ic'], ['ical', 'ic'], ['ful', ''], ['ness', ''],
];
const STEP4 = [
  'al', 'ance', 'ence', 'er', 'ic', 'able', 'ible', 'ant', 'ement', 'ment', 'ent', 'ion', 'ou',
  'ism', 'ate', 'iti', 'ous', 'ive', 'ize',
];

function step1ab(w: string): string {
  // 1a
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (w.endsWith('ss')) {
    /* unchanged */
  } else if (w.endsWith('s')) w = w.slice(0, -1);
  // 1b
  if (w.endsWith('eed')) {
    if (measure(w, w.length - 3) > 0) w = w.slice(0, -1);
    return w;
  }
  let stripped: string | null = null;
  if (w.endsWith('ed') && hasVowel(w, w.length - 2)) stripped = w.slice(0, -2);
  else if (w.endsWith('ing') && hasVowel(w, w.length - 3)) stripped = w.slice(0, -3);
  if (stripped === null) return w;
  w = stripped;
  if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) return w + 'e';
  if (endsDoubleConsonant(w)) {
    const c = w[w.length - 1];
    return c === 'l' || c === 's' || c === 'z' ? w : w.slice(0, -1);
  }
  if (measure(w, w.length) === 1 && endsCvc(w, w.length)) return w + 'e';
  return w;
}

function step1c(w: string): string {
  if (w.endsWith('y') && hasVowel(w, w.length - 1)) return w.slice(0, -1) + 'i';
  return w;
}

function stepTable(w: string, table: [string, string][]): string {
  for (const [s, r] of table) {
    const out = replaceIf(w, s, r, 0);
    if (out !== null) return out; // only the longest matching suffix is considered
  }
  return w;
}

function step4(w: string): string {
  // Longest match first: sort once by length so 'ement' is tried before 'ment' and 'ent'.
  for (const s of STEP4_BY_LENGTH) {
    if (!w.endsWith(s)) continue;
    const stemEnd = w.length - s.length;
    if (measure(w, stemEnd) <= 1) return w;
    if (s === 'ion') {
      const c = w[stemEnd - 1];
      return c === 's' || c === 't' ? w.slice(0, stemEnd) : w;
    }
    return w.slice(0, stemEnd);
  }
  return w;
}
const STEP4_BY_LENGTH = [...STEP4].sort((a, b) => b.length - a.length);
const STEP2_BY_LENGTH = [...STEP2].sort((a, b) => b[0].length - a[0].length);
const STEP3_BY_LENGTH = [...STEP3].sort((a, b) => b[0].length - a[0].length);

function step5(w: string): string {
  if (w.endsWith('e')) {
    const m = measure(w, w.length - 1);
    if (m > 1 || (m === 1 && !endsCvc(w, w.length - 1))) w = w.slice(0, -1);
  }
  if (w.endsWith('ll') && measure(w, w.length) > 1) w = w.slice(0, -1);
  return w;
}

/** Porter-stem one lowercase word. */
export function porterStem(word: string): string {
  if (word.length <= 2 || !ASCII_WORD.test(word)) return word;
  let w = step1ab(word);
  w = step1c(w);
  w = stepTable(w, STEP2_BY_LENGTH);
  w = stepTable(w, STEP3_BY_LENGTH);
  w = step4(w);
  w = step5(w);
  return w;
}
