// Entity recognition for E11: wink-nlp's lite English model (calendar dates, money, e-mails,
// URLs, hashtags, @mentions) plus the core's capitalised-phrase heuristic for names
// (the lite model does not tag people, places, organisations or products).
// The wink model is loaded lazily, once per realm (~0.4 s, a few MB of JS).

import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { capitalisedPhrases, mergeMentions, type EntityMention } from '../core/features';

// Clock times ("9 am"), durations ("two hours") and relative time words are WHEN, not WHAT: as
// entities they made "met Priya at 9 am" vs "... at 9 pm" an entity mismatch and raised a
// divergence alert on a temporal-only difference. Time belongs in the temporal spaces E2-E4, which
// are left out of divergence because they encode when, not what (the thirteen-spaces design), so
// a difference in time alone must never alert. Calendar dates stay: "7 May 2023" names an occasion.
const KEEP = new Set(['DATE', 'MONEY', 'EMAIL', 'URL', 'HASHTAG', 'MENTION']);

type Nlp = ReturnType<typeof winkNLP>;
let nlp: Nlp | undefined;

function engine(): Nlp {
  nlp ??= winkNLP(model, ['sbd', 'pos', 'ner']);
  return nlp;
}

// "today", "tonight": relative dates would make every memory of a day share an entity
// (also "last week", "next Friday", "two days ago", "this weekend", weekday or part-of-day alone)
const RELATIVE =
  /^(today|yesterday|tomorrow|tonight|now|recently|lately|soon|earlier|later|(this|last|next|that|every|each|the other|the next|the previous)\s+\S+(\s+\S+)?|.*\b(ago|later|earlier|before|after|from now)|(on\s+)?(mon|tues|wednes|thurs|fri|satur|sun)day(s)?|(in the\s+)?(morning|afternoon|evening|night|weekend)s?)$/i;

/**
 * `isEmphasis(word)`: true for a lowercased word that is ordinary vocabulary written in capitals
 * for emphasis ("AMAZING"), so it is not taken for a name; pass e.g. a sentiment-lexicon lookup.
 */
export function recognizeEntities(text: string, isEmphasis: (word: string) => boolean = () => false): EntityMention[] {
  const n = engine();
  const found = n.readDoc(text).entities().out(n.its.detail) as unknown as { value: string; type: string }[];
  const ner: EntityMention[] = [];
  let from = 0;
  for (const e of found) {
    if (!KEEP.has(e.type) || RELATIVE.test(e.value.trim())) continue;
    const at = text.indexOf(e.value, from);
    ner.push({ text: e.value, type: e.type, start: at >= 0 ? at : undefined });
    if (at >= 0) from = at + e.value.length;
  }
  // a capitalised word inside a recognised span ("May" in "7 May 2023") is not a name
  const inside = (m: EntityMention) =>
    m.start !== undefined && ner.some((e) => e.start !== undefined && m.start! >= e.start && m.start! < e.start + e.text.length);
  const shouted = (m: EntityMention) => /^[A-Z]+$/.test(m.text) && m.text.length > 3 && isEmphasis(m.text.toLowerCase());
  return mergeMentions(ner, capitalisedPhrases(text).filter((m) => !inside(m) && !shouted(m)));
}
