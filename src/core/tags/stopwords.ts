// English stopwords for key-phrase extraction (RAKE splits candidate phrases at these).
// A classic list (SMART / NLTK core) plus a few chat fillers that make poor tags.

const WORDS = `
a about above after again against all almost also am an and any are aren't as at be because been
before being below between both but by can cannot can't could couldn't did didn't do does doesn't
doing don't done down during each either else etc even ever every few for from further get gets
got had hadn't has hasn't have haven't having he he'd he'll her here here's hers herself he's him
himself his how how's however i i'd if i'll i'm in into is isn't it its it's itself i've just
let let's like made make many may maybe me might more most much must mustn't my myself need needs
no nor not now of off often on once one only or other others ought our ours ourselves out over own
per perhaps quite rather really same say said says shall shan't she she'd she'll she's should
shouldn't since so some still such than that that's the their theirs them themselves then there
there's these they they'd they'll they're they've thing things this those though through thus to
too under until up upon us use used using very via was wasn't we we'd we'll were we're weren't
we've what what's when when's where where's whether which while who whom who's whose why why's
will with within without won't would wouldn't yes yet you you'd you'll your you're yours yourself
yourselves you've ok okay yeah oh hey hi hello thanks thank please also well lot lots today
yesterday tomorrow something anything everything nothing someone anyone everyone
see seen saw went go goes going gone know knew known think thought want wanted told tell take took
come came put
`;

export const STOPWORDS: ReadonlySet<string> = new Set(WORDS.split(/\s+/).filter(Boolean));

export function isStopword(w: string): boolean {
  return STOPWORDS.has(w.toLowerCase().replace(/’/g, "'"));
}

// Generic content words: fine inside a name ("New York"), poor as a key phrase on their own.
const WEAK = `
last next first second year years month months week weeks day days night time times ago new old
good great nice bad big small little lot kind sort way part place stuff bit remember really
actually pretty feel felt great love loved
`;

// Quantities and units ("250 ml milk", "a pinch of salt", "1 tbsp sugar"): they measure the thing
// a tag should name, so they split a phrase ("ml-milk" -> "milk") and never stand alone ("pinch").
const MEASURES = `
ml l cl dl litre litres liter liters g gram grams kg mg oz ounce ounces lb lbs pound pounds cup cups
tbsp tsp tablespoon tablespoons teaspoon teaspoons pinch pinches dash dashes handful handfuls splash
sprinkle bunch clove cloves slice slices piece pieces cm mm km m mi min mins minute minutes hr hrs hour
hours sec secs second seconds °c °f kcal
`;

// Everyday verbs that glue a phrase together but name nothing ("nutmeg makes" -> "nutmeg").
const GLUE_VERBS = `
makes making puts putting says saying keeps keeping gives giving seems seemed looks looked tries tried
trying started starts starting finally again getting turned turns worked working
`;

export const WEAK_WORDS: ReadonlySet<string> = new Set(`${WEAK} ${MEASURES} ${GLUE_VERBS}`.split(/\s+/).filter(Boolean));

/** A possessive ("Mum's", "James’"): it says whose, not what, so it is no key-phrase word. */
export function isPossessive(w: string): boolean {
  return /\p{L}['’]s$/iu.test(w) || /s['’]$/iu.test(w);
}

/** Not a key-phrase word: a stopword, a generic content word, a measure, or a possessive. */
export function isWeakWord(w: string): boolean {
  return isStopword(w) || WEAK_WORDS.has(w.toLowerCase()) || isPossessive(w);
}
