// What deeper search (seed 003) and iterative search (seed 001) did in one recall, in plain words
// for the results card; the figures (confidence against the threshold, the pool by way, timings,
// grades) for its "details". Pure: tested in Node.
import type { EngineDeepReport, EngineIterativeReport } from '../../protocol/engine';

/** One sentence about deeper search in this recall (null when it did not run or stop anything). */
export function deepSearchWords(r: EngineDeepReport | undefined, added: number): string | null {
  if (!r) return null;
  const n = r.pool.filter((p) => p.primaryRank === null).length;
  // read by the language model on this computer or careful ranking's judge (workers/engine-deep.ts): said so
  const more = `${n} more ${n === 1 ? 'memory' : 'memories'}`;
  const read = r.model ? `${more} with the language model on this computer` : r.judge ? `${more} with careful ranking` : more;
  switch (r.status) {
    case 'merged':
      return added > 0
        ? `Your first results looked unsure, so deeper search read ${read} and added ${added}.`
        : `Your first results looked unsure, so deeper search read ${read}; none was a better match.`;
    case 'shadow':
      return `Deeper search tried this recall in watch-only mode and kept a log; your results are unchanged.`;
    case 'timeout':
      return 'Deeper search ran out of time, so these are your first results.';
    case 'error':
      return 'Deeper search could not finish, so these are your first results.';
    case 'rate-limited':
      return 'Deeper search has reached its limit for this session, so it did not run again. These are your first results.';
    default:
      return null;
  }
}

/** The figures behind it, for "details". */
export function deepSearchFigures(r: EngineDeepReport): string[] {
  const ways = { temporal: 0, entity: 0, community: 0, meaning: 0, rule: 0 };
  for (const p of r.pool) for (const v of p.via) ways[v.strategy]++;
  const out = [
    `status ${r.status} · mode ${r.mode}`,
    `confidence ${r.confidence.value.toFixed(2)} (top ${r.confidence.top.toFixed(2)}, gap ${r.confidence.gap.toFixed(2)}, count ${r.confidence.count.toFixed(2)}, spread ${r.confidence.spread.toFixed(2)}) below threshold ${r.threshold.toFixed(2)}`,
  ];
  if (r.status !== 'rate-limited')
    out.push(
      `pool ${r.pool.length} (${r.pool.filter((p) => p.primaryRank !== null).length} first results; nearby in time ${ways.temporal}, shared name ${ways.entity}, same group ${ways.community}${ways.meaning ? `, close in meaning ${ways.meaning}` : ''}${ways.rule ? `, rules ${ways.rule}` : ''}); trimmed to the token budget ${r.trimmed}`,
      `reader scores ${r.scores.length} · expand ${Math.round(r.timings.expandMs)} ms · read ${Math.round(r.timings.readMs)} ms · total ${Math.round(r.timings.totalMs)} ms`,
    );
  if (r.model) out.push(`read by the language model on this computer: it scored ${r.model.read} of ${r.model.of} memories · ${r.model.ms} ms`);
  if (r.judge) out.push(`read with careful ranking's judge: ${r.judge.read} of ${r.judge.of} memories had its vector · ${r.judge.ms} ms`);
  if (r.error) out.push(`error: ${r.error}`);
  return out;
}

/** Iterative search in words: the lines to show (the passes, then the abstention) and a heading sentence. */
export function iterativeWords(it: EngineIterativeReport | undefined): { lead: string; lines: string[]; abstained: boolean } | null {
  if (!it) return null;
  if (it.stoppedBy === 'easy') return { lead: 'Your first search looked good enough, so it did not look again.', lines: [], abstained: false };
  const lines = it.explanation.filter((l) => l.startsWith('pass ') && !l.startsWith('pass 1:'));
  const lead = it.abstained
    ? 'Nothing good enough was found, even after looking again; these are the closest memories.'
    : it.stoppedBy === 'good-enough'
      ? 'Kept looking until something good enough turned up:'
      : 'Kept looking:';
  return { lead, lines, abstained: it.abstained };
}
