// Synthetic recall results for the graph lab: deterministic (seeded), sized to about n nodes.
import type { GraphModelInput, RecallResultInput } from '../ui/graph/model';
import { seededUniform } from '../core/features';

const A = ['Postgres', 'B-tree', 'Cache', 'Kafka', 'React', 'Garden', 'Sourdough', 'Marathon', 'Tax', 'Piano', 'Rust', 'Kernel', 'Budget', 'Trip', 'Sleep', 'Chess'];
const B = ['index tuning', 'eviction policy', 'layout notes', 'retry storms', 'render loop', 'soil test', 'starter feeding', 'training plan', 'receipts', 'practice log', 'borrow checker', 'scheduler', 'review', 'packing list', 'tracking', 'openings'];
const C = ['from March', 'meeting', 'idea', 'follow-up', 'checklist', 'lesson', 'draft', 'summary'];
const TAGS = ['db', 'perf', 'fs', 'os', 'ui', 'home', 'food', 'health', 'money', 'music', 'travel', 'work', 'learning', 'family'];

export function syntheticInput(n: number, opts: { seed?: number; showTags?: boolean; divergence?: boolean } = {}): GraphModelInput {
  const rand = seededUniform(opts.seed ?? 42); // the same mulberry32 sequence as before
  const pick = <T,>(xs: T[]): T => xs[Math.floor(rand() * xs.length)];
  const label = () => `${pick(A)} ${pick(B)} ${pick(C)}`;
  const tags = () => [...new Set([pick(TAGS), pick(TAGS)])].slice(0, 1 + Math.floor(rand() * 2));
  const results: RecallResultInput[] = [];
  const labels: Record<string, string> = {};
  const divergence = opts.divergence ?? true;
  let budget = Math.max(1, n - 1 - (divergence ? 4 : 0)); // query + alert + 3 recents
  let k = 0;
  const id = () => `mem-${String(k++).padStart(5, '0')}`;
  while (budget > 0) {
    const r = rand();
    if (r < 0.58 || budget < 3) {
      results.push({ id: id(), label: label(), score: 0.45 + rand() * 0.55, mode: 'standard', tags: tags() });
      budget--;
    } else if (r < 0.76) {
      results.push({ id: id(), label: label(), score: 0.35 + rand() * 0.4, mode: 'lateral', tags: tags() });
      budget--;
    } else {
      const len = Math.min(budget, 2 + Math.floor(rand() * 2));
      const chain = [];
      for (let h = 1; h <= len; h++) {
        const cid = id();
        labels[cid] = label();
        chain.push({ id: cid, hop: h, cosine: 0.72 + rand() * 0.2 });
      }
      const last = chain[chain.length - 1];
      results.push({ id: last.id, label: labels[last.id], score: 0.25 + rand() * 0.4, mode: 'associative', tags: tags(), chain });
      budget -= len;
    }
  }
  return {
    query: 'how did we speed up database indexing?',
    results,
    labels: { ...labels, ...RECENT_LABELS },
    showTags: opts.showTags ?? false,
    divergence: divergence
      ? [{ spaceName: 'E7 temporal', similarity: 0.18, threshold: 0.42, recentIds: ['recent-1', 'recent-2', 'recent-3'] }]
      : undefined,
  };
}

export const RECENT_LABELS: Record<string, string> = {
  'recent-1': 'Sprint review notes',
  'recent-2': 'Vacation photos caption',
  'recent-3': 'Grocery list for Sunday',
};
