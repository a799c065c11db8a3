// English stopwords: the classic SMART / Lucene-style function-word list, with contractions
// in the apostrophe-free form the tokenizer produces ("don't" -> "dont", "i'm" -> "im").
// Deliberately excludes words that carry meaning in personal memories (numbers, "first",
// "new", "old", "never", "again" ...): the list only holds grammatical glue.

const WORDS = `
a about above after again against all am an and any are aren arent as at
be because been before being below between both but by
can cannot could couldnt
did didnt do does doesnt doing dont down during
each few for from further
had hadnt has hasnt have havent having he hed hell hes her here heres hers herself him himself his how hows
i id ill im ive if in into is isnt it its itself
lets me more most mustnt my myself
no nor not of off on once only or other ought our ours ourselves out over own
same shant she shed shell shes should shouldnt so some such
than that thats the their theirs them themselves then there theres these they theyd theyll theyre theyve this those through to too
under until up very
was wasnt we wed well were weve werent what whats when whens where wheres which while who whos whom why whys will with wont would wouldnt
you youd youll youre youve your yours yourself yourselves
also just really yeah yes oh hey hi ok okay
`;

export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set(WORDS.split(/\s+/).filter(Boolean));

export function isStopword(token: string): boolean {
  return ENGLISH_STOPWORDS.has(token);
}
