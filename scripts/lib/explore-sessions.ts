// Session scripts for the Explore measurements (scripts/measure-explore.ts): what a person does in
// one sitting, written by hand. Each step is a capture or a query, `min` minutes after the script's
// start, and `about` says (by a person's judgement) whether it is about the work of the sitting so
// far ('same') or about something else ('other'). A script runs in its own session unless
// `newSession` starts another one (a reload, or half an hour idle) at that step. The scripts start
// after the sample collection ends (December 2026), so its memories are outside every window
// except where a script says `afterSampleSession`.

export interface SessionStep {
  kind: 'capture' | 'query';
  text: string;
  min: number;
  about: 'same' | 'other';
  /** This step starts a new session (a reload, or idling past 30 minutes). */
  newSession?: boolean;
  tags?: string[];
}

export interface SessionScript {
  name: string;
  /** ISO start time. */
  start: string;
  steps: SessionStep[];
}

const cap = (min: number, text: string, about: SessionStep['about'] = 'same', tags?: string[]): SessionStep => ({ kind: 'capture', text, min, about, tags });
const ask = (min: number, text: string, about: SessionStep['about']): SessionStep => ({ kind: 'query', text, min, about });

export const SESSION_SCRIPTS: readonly SessionScript[] = [
  {
    name: 'sourdough morning',
    start: '2026-12-05T08:00:00Z',
    steps: [
      cap(0, 'Fed the starter at eight; it had doubled by eleven. The rye flour really speeds it up.', 'same', ['sourdough']),
      cap(12, 'Tried a 75% hydration dough today, very slack, needed four sets of stretch and folds before it held its shape.', 'same', ['sourdough']),
      ask(15, 'how long should bulk fermentation take', 'same'),
      ask(17, 'rye starter feeding ratio', 'same'),
      cap(50, 'The loaf came out with a tight crumb. Next time a longer bulk ferment and a warmer spot.', 'same', ['sourdough']),
      ask(52, 'bread crumb too tight', 'same'),
      ask(55, 'when is Priya and Arun\'s wedding', 'other'),
      ask(57, 'postgres index on created_at', 'other'),
      ask(60, 'stretch and fold technique', 'same'),
      ask(62, 'sourdough', 'same'),
      ask(63, 'oven temperature', 'same'),
    ],
  },
  {
    name: 'work incident',
    start: '2026-12-07T13:30:00Z',
    steps: [
      cap(0, 'CI is red again: the order-export test times out only on the shared runners, never locally.', 'same', ['work', 'flaky-tests']),
      cap(8, 'Heap snapshots after the Friday deploy: the export worker keeps every parsed row in an array until the stream ends. That is the leak.', 'same', ['work']),
      ask(10, 'why does the test fail only in CI', 'same'),
      ask(13, 'node heap grows after deploy', 'same'),
      ask(16, 'tomato blight on the allotment', 'other'),
      cap(25, 'Fixed: the export now streams rows through stream.pipeline, memory flat at 180 MB.', 'same', ['work']),
      ask(27, 'backpressure in node streams', 'same'),
      ask(31, 'holiday flights to Lisbon', 'other'),
      ask(33, 'how to write the incident review', 'same'),
    ],
  },
  {
    name: 'trip planning',
    start: '2026-12-09T19:00:00Z',
    steps: [
      cap(0, 'Booked the Lisbon flights for March: out on the 12th, back on the 18th, window seats.', 'same', ['travel', 'lisbon']),
      cap(6, 'Sam wants to stay in Alfama; found a flat with a terrace near the Miradouro de Santa Luzia.', 'same', ['travel', 'lisbon']),
      ask(9, 'tram 28 tips', 'same'),
      ask(12, 'guitar chord changes practice', 'other'),
      ask(14, 'what to pack for Portugal in March', 'same'),
      ask(16, 'pastel de nata bakery', 'same'),
      ask(20, 'emergency fund balance', 'other'),
    ],
  },
  {
    name: 'one capture, then questions',
    start: '2026-12-11T18:00:00Z',
    steps: [
      cap(0, 'Called Mum about Christmas: she wants everyone at hers on the 24th, Jun is bringing the goose.', 'same', ['family']),
      ask(3, 'christmas dinner plans', 'same'),
      ask(5, 'refactoring the dispatch service', 'other'),
      ask(7, 'what did Jun say about Christmas', 'same'),
    ],
  },
  {
    name: 'a reload after a run',
    start: '2026-12-12T07:00:00Z',
    steps: [
      cap(0, 'Ran 12 km with Marcus along the canal, negative splits, felt strong until the last hill.', 'same', ['running']),
      cap(5, 'Right knee ached a little on the downhill again; doing the hip routine tonight.', 'same', ['running']),
      ask(40, 'knee pain after running', 'same', ),
      ask(41, 'budget for December', 'other'),
      { ...ask(45, 'how much did I spend on takeaway', 'other'), newSession: true },
      ask(47, 'foam rolling routine', 'same'),
      ask(49, 'LRU cache eviction', 'other'),
    ],
  },
  {
    name: 'drifting through topics',
    start: '2026-12-13T10:00:00Z',
    steps: [
      cap(0, 'Spread two barrows of manure on beds three and four before the frost.', 'same', ['allotment']),
      cap(10, 'Harold says the broad beans should go in now so they overwinter; sowed a double row.', 'same', ['allotment']),
      ask(12, 'when to sow broad beans', 'same'),
      cap(30, 'Guitar: finally got the F barre chord clean at 70 bpm, thumb low behind the neck.', 'other', ['guitar']),
      ask(33, 'barre chord buzzing', 'same'),
      ask(35, 'manure on the beds', 'same'),
      ask(38, 'kubernetes autoscaler oscillating', 'other'),
    ],
  },
  {
    name: 'code review afternoon',
    start: '2026-12-15T14:00:00Z',
    steps: [
      cap(0, 'Reviewed Noor\'s pull request for the depot list cache: ETag handling is right, asked for a test of the 304 path.', 'same', ['work', 'code-review']),
      cap(20, 'Dana wants the dispatch service split finished before the holidays; two modules left, routing and billing.', 'same', ['work']),
      ask(22, 'code review comments for Noor', 'same'),
      ask(25, 'HTTP caching with ETag', 'same'),
      ask(27, 'wedding present for Priya', 'other'),
      ask(30, 'splitting the dispatch service into modules', 'same'),
      ask(33, 'Oma Ilse\'s birthday', 'other'),
      ask(36, 'woodworking walnut board finish', 'other'),
    ],
  },
  {
    name: 'reading notes',
    start: '2026-12-17T21:00:00Z',
    steps: [
      cap(0, 'Thinking in Systems, chapter 2: a balancing loop with a delay oscillates, like the shower that is too hot then too cold.', 'same', ['reading', 'systems']),
      cap(15, 'The bathtub picture: stocks change only through flows; you cannot drain a stock faster than its outflow allows.', 'same', ['reading', 'systems']),
      ask(18, 'feedback loops with delays', 'same'),
      ask(21, 'stocks and flows', 'same'),
      ask(23, 'sauerkraut salt ratio', 'other'),
      ask(26, 'why do systems oscillate', 'same'),
      ask(29, 'the leaf mould bags', 'other'),
    ],
  },
];
