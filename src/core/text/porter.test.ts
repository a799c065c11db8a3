import { describe, expect, it } from 'vitest';
import { porterStem } from './porter';

// Pairs from Porter (1980): the worked examples of each step, and the multi-step chains of the
// paper ("GENERALIZATIONS -> ... -> GENER", "OSCILLATORS -> ... -> OSCIL").
const PAIRS: [string, string][] = [
  // step 1a
  ['caresses', 'caress'], ['ponies', 'poni'], ['ties', 'ti'], ['caress', 'caress'], ['cats', 'cat'],
  // step 1b
  ['feed', 'feed'], ['agreed', 'agre'], ['plastered', 'plaster'], ['bled', 'bled'], ['motoring', 'motor'],
  ['sing', 'sing'], ['conflated', 'conflat'], ['troubled', 'troubl'], ['sized', 'size'], ['hopping', 'hop'],
  ['tanned', 'tan'], ['falling', 'fall'], ['hissing', 'hiss'], ['fizzed', 'fizz'], ['failing', 'fail'],
  ['filing', 'file'],
  // step 1c
  ['happy', 'happi'], ['sky', 'sky'],
  // step 2
  ['relational', 'relat'], ['conditional', 'condit'], ['rational', 'ration'], ['valenci', 'valenc'],
  ['hesitanci', 'hesit'], ['digitizer', 'digit'], ['conformabli', 'conform'], ['radicalli', 'radic'],
  ['differentli', 'differ'], ['vileli', 'vile'], ['analogousli', 'analog'], ['vietnamization', 'vietnam'],
  ['predication', 'predic'], ['operator', 'oper'], ['feudalism', 'feudal'], ['decisiveness', 'decis'],
  ['hopefulness', 'hope'], ['callousness', 'callous'], ['formaliti', 'formal'], ['sensitiviti', 'sensit'],
  ['sensibiliti', 'sensibl'],
  // step 3
  ['triplicate', 'triplic'], ['formative', 'form'], ['formalize', 'formal'], ['electriciti', 'electr'],
  ['electrical', 'electr'], ['hopeful', 'hope'], ['goodness', 'good'],
  // step 4
  ['revival', 'reviv'], ['allowance', 'allow'], ['inference', 'infer'], ['airliner', 'airlin'],
  ['gyroscopic', 'gyroscop'], ['adjustable', 'adjust'], ['defensible', 'defens'], ['irritant', 'irrit'],
  ['replacement', 'replac'], ['adjustment', 'adjust'], ['dependent', 'depend'], ['adoption', 'adopt'],
  ['homologou', 'homolog'], ['communism', 'commun'], ['activate', 'activ'], ['angulariti', 'angular'],
  ['homologous', 'homolog'], ['effective', 'effect'], ['bowdlerize', 'bowdler'],
  // step 5
  ['probate', 'probat'], ['rate', 'rate'], ['cease', 'ceas'], ['controll', 'control'], ['roll', 'roll'],
  // chains
  ['generalizations', 'gener'], ['oscillators', 'oscil'],
  // everyday words
  ['running', 'run'], ['painting', 'paint'], ['paintings', 'paint'], ['camping', 'camp'], ['adopted', 'adopt'],
];

describe('porterStem', () => {
  it.each(PAIRS)('%s -> %s', (word, stem) => {
    expect(porterStem(word)).toBe(stem);
  });

  it('leaves short words, numbers and non-ASCII words alone', () => {
    expect(porterStem('is')).toBe('is');
    expect(porterStem('2023')).toBe('2023');
    expect(porterStem('café')).toBe('café');
    expect(porterStem('東京')).toBe('東京');
  });

  it('conflates inflections of one word', () => {
    const forms = ['connect', 'connected', 'connecting', 'connection', 'connections'];
    expect(new Set(forms.map(porterStem))).toEqual(new Set(['connect']));
  });
});
