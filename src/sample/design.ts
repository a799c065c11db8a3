// What the sample collection was designed to show in the explorer. Each memory is named by the
// exact start of its text (unique in memories.json; sample.test.ts checks that). README.md
// explains the same design in prose.

/**
 * Memories in clearly different domains that share one tag on purpose, for lateral retrieval: a memory
 * far from the query (L2 > 1.2) that shares the query's tags is appended after the standard results.
 */
export interface LateralDesign {
  tag: string;
  /** A query that should find the first member directly and surface the others laterally. */
  query: string;
  members: { domain: string; startsWith: string }[];
}

/**
 * A prompt -> m1 -> m2 (-> m3) chain of close paraphrase neighbours, for associative recall: from each
 * direct hit the walk follows its nearest memories with cosine >= 0.72, up to three hops.
 */
export interface ChainDesign {
  query: string;
  steps: string[];
}

/** A wrong fact and the newer memory that corrects it (the older one deserves quarantine). */
export interface CorrectionDesign {
  wrong: string;
  correction: string;
}

export const LATERAL_PAIRS: readonly LateralDesign[] = [
  {
    tag: 'patience',
    query: 'waiting for my new sourdough starter to get going',
    members: [
      { domain: 'baking', startsWith: 'Started a sourdough starter today' },
      { domain: 'software', startsWith: 'Spent the afternoon on a flaky test' },
      { domain: 'gardening', startsWith: 'Collected six bin bags of fallen leaves' },
    ],
  },
  {
    tag: 'layering',
    query: 'how to assemble a lasagna',
    members: [
      { domain: 'cooking', startsWith: 'Made lasagna for Priya' },
      { domain: 'software', startsWith: 'Wrote up the layering for the new dispatch service' },
      { domain: 'woodworking', startsWith: 'Finishing the walnut test piece with shellac' },
    ],
  },
  {
    tag: 'caching',
    query: 'cooking a big batch of curry for the freezer',
    members: [
      { domain: 'cooking', startsWith: 'Sunday meal prep but on a Thursday' },
      { domain: 'software', startsWith: 'Added HTTP caching to the depot list endpoint' },
    ],
  },
  {
    tag: 'indexing',
    query: 'old library card catalogue drawers',
    members: [
      { domain: 'reading', startsWith: 'Our branch library is selling off its old oak card catalogue' },
      { domain: 'software', startsWith: 'EXPLAIN ANALYZE says the slow orders query' },
      { domain: 'software', startsWith: 'Reorganised the delivery photo store' },
      { domain: 'family', startsWith: "Mom gave me Ilse's recipe tin" },
    ],
  },
  {
    tag: 'race-condition',
    query: 'the charity relay race baton handoff',
    members: [
      { domain: 'running', startsWith: 'The charity relay.' },
      { domain: 'software', startsWith: 'Race condition in the job queue: two' },
    ],
  },
  {
    tag: 'feedback-loop',
    query: 'practising guitar with a metronome',
    members: [
      { domain: 'music', startsWith: 'Practising with the metronome at 60 bpm' },
      { domain: 'software', startsWith: 'The worker autoscaler is oscillating' },
      { domain: 'reading', startsWith: 'Reading "Thinking in Systems"' },
    ],
  },
  {
    tag: 'debugging',
    query: "why didn't my bread rise",
    members: [
      { domain: 'baking', startsWith: "Worked out why the bread didn't rise" },
      { domain: 'software', startsWith: 'Why the test fails:' },
    ],
  },
  {
    tag: 'compounding',
    query: 'explaining index funds to my brother',
    members: [
      { domain: 'finance', startsWith: 'My brother Jun asked whether' },
      { domain: 'music', startsWith: 'Fifteen minutes of guitar every day' },
    ],
  },
  {
    tag: 'pruning',
    query: 'pinching out tomato side shoots',
    members: [
      { domain: 'gardening', startsWith: 'Bought six tomato plants from the market' },
      { domain: 'software', startsWith: 'Pruned 143 stale git branches' },
    ],
  },
  {
    tag: 'grain',
    query: 'which way to plane a board so the shavings come off like a ribbon',
    members: [
      { domain: 'woodworking', startsWith: 'Learning to read wood grain' },
      { domain: 'software', startsWith: 'Tomas and I talked about lock grain' },
    ],
  },
  {
    tag: 'tempo',
    query: 'Saturday run with Marcus at a comfortably hard pace',
    members: [
      { domain: 'running', startsWith: 'Tempo run with Marcus' },
      { domain: 'music', startsWith: 'Pushed the chord-change drill from 60 to 66 bpm' },
    ],
  },
  {
    tag: 'backpressure',
    query: 'dinner party where the kitchen got overwhelmed',
    members: [
      { domain: 'cooking', startsWith: 'Dinner party for eight went wrong' },
      { domain: 'software', startsWith: 'The CSV export job was eating 4 GB' },
    ],
  },
  {
    tag: 'refactoring',
    query: 'crop rotation plan for the allotment beds',
    members: [
      { domain: 'gardening', startsWith: 'Refactoring the allotment for next year' },
      { domain: 'software', startsWith: 'Refactored the 1,400-line' },
    ],
  },
  {
    tag: 'budget',
    query: 'monthly spending on takeaway and coffee',
    members: [
      { domain: 'finance', startsWith: "Sat down with last month's bank export" },
      { domain: 'software', startsWith: 'Set a performance budget for the driver web app' },
    ],
  },
  {
    tag: 'measure-twice',
    query: 'cutting on the wrong side of the line in the wood shop',
    members: [
      { domain: 'woodworking', startsWith: "Elena's rule: measure twice" },
      { domain: 'software', startsWith: 'Ran the index migration on a copy of production first' },
    ],
  },
  {
    tag: 'recovery',
    query: 'what to do the day after my longest run',
    members: [
      { domain: 'running', startsWith: 'Recovery day plan after the 18k' },
      { domain: 'software', startsWith: 'Disaster recovery drill' },
    ],
  },
  {
    tag: 'seeds',
    query: 'heirloom runner bean seeds from a neighbour',
    members: [
      { domain: 'gardening', startsWith: 'Harold gave me a paper envelope of runner bean seeds' },
      { domain: 'software', startsWith: 'Our property-based tests for the route planner' },
    ],
  },
  {
    tag: 'forgetting',
    query: 'my grandmother not recognising me at first',
    members: [
      { domain: 'family', startsWith: 'Saw Oma Ilse. For the first few minutes' },
      { domain: 'software', startsWith: 'Our in-memory route cache grew to 3 GB' },
    ],
  },
];

export const CHAINS: readonly ChainDesign[] = [
  {
    query: 'race condition in the job queue',
    steps: [
      'Race condition in the job queue: two',
      'Race condition in the job queue fixed with a mutex',
      'The mutex fixed the race condition in the job queue, but',
      'Replaced the job queue mutex with a lock-free ring buffer',
    ],
  },
  {
    query: 'sourdough starter smells like acetone',
    steps: [
      'The sourdough starter smells like nail polish remover',
      'Why the sourdough starter smells like nail polish remover',
      'Feeding the sourdough starter twice a day fixed it',
      'Starter doubling reliably in six hours',
    ],
  },
  {
    query: 'why are my tomato leaves turning yellow',
    steps: [
      'Why are my tomato leaves turning yellow?',
      'Harold took one look: the yellow lower tomato leaves',
      'The early blight spread to two more tomato plants',
      'The straw mulch stopped the early blight spreading',
    ],
  },
  {
    query: 'knee pain after a long run',
    steps: [
      'Left knee pain after the long run again',
      'The left knee pain after long runs, on the outside',
      'Foam rolling the IT band and doing the hip strength routine',
      'The hip strength routine fixed the knee pain',
    ],
  },
  {
    query: 'F barre chord buzzes',
    steps: [
      'The F barre chord buzzes on the B and high E strings no matter',
      'The F barre chord buzzes on the B and high E strings because',
      'Moved my thumb lower, behind the neck',
      'With my thumb low behind the neck, the F barre chord is clean',
    ],
  },
  {
    query: 'the orders query is slow',
    steps: [
      'The orders query is slow:',
      'EXPLAIN ANALYZE says the slow orders query',
      'Added a composite index on orders (customer_id, created_at)',
      'The composite index on orders (customer_id, created_at), built',
    ],
  },
  {
    query: 'walnut tabletop cupped',
    steps: [
      'The walnut tabletop cupped overnight',
      'Why the walnut tabletop cupped overnight',
      'To stop the walnut tabletop cupping again',
      'The walnut tabletop is flat again',
    ],
  },
  {
    query: "sourdough didn't rise in the cold kitchen",
    steps: [
      "My sourdough didn't rise properly in the cold kitchen",
      "Worked out why the bread didn't rise",
      'Proofing the sourdough in the oven with only the light on',
      'The oven-light proofing made the loaf rise',
    ],
  },
];

export const CORRECTIONS: readonly CorrectionDesign[] = [
  { wrong: 'Phoned Oma Ilse in Hamburg.', correction: "Correction: Oma Ilse's birthday is 19 August" },
  {
    wrong: "Note from the transactions reading group: Postgres's default isolation level is repeatable read",
    correction: "Correction: Postgres's default isolation level is read committed",
  },
  { wrong: 'Tomas announced his partner is due', correction: "Correction: Tomas's parental leave starts on 5 October" },
];

/** Pairs written as near-duplicates (same fact noted twice, slightly differently). */
export const NEAR_DUPLICATES: readonly [string, string][] = [
  ['Courgette glut has arrived', 'Courgette glut: nine this morning'],
  ['Sauerkraut salt: 900 g cabbage', 'Sauerkraut salt is 2% of the cabbage weight'],
  ["Decided what to make for Priya and Arun's wedding", 'Wedding present plan: walnut serving board'],
];

/** People who recur in the collection. */
export const PEOPLE: readonly string[] = [
  'Ilse', 'Priya', 'Marcus', 'Tomas', 'Noor', 'Sam', 'Jun', 'Harold', 'Elena', 'Leo', 'Dana', 'Arun', 'Mom',
];
