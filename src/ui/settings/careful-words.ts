// Careful ranking in plain words (Settings and the answer's details); the figures apart, for
// "details". Pure: the status in, sentences out.
import { modelFailureKind, modelFailureReason } from '../../embed/load-failure';
import type { CarefulRankingStatus } from '../../services/judge';
import type { CarefulNote } from '../../services/judge-refine';

const count = (n: number) => n.toLocaleString('en-US');

/** The one sentence under the switch: whether it can run, and how far its reading is. */
export function carefulStatusWords(s: CarefulRankingStatus): string {
  if (s.model === 'none') return 'Not available with this search model.';
  if (s.model === 'unavailable') return `Careful ranking isn't available: ${modelFailureReason(modelFailureKind(s.detail ?? ''))}. Answers are ranked as usual.`;
  if (!s.on) return 'Off. Answers are ranked without the second reading.';
  if (s.model === 'idle') return 'Starts once the app has finished loading.';
  if (s.model === 'loading') return 'Loading its model…';
  if (s.total === 0) return 'Ready. It reads each memory you save, in the background.';
  const read = `Careful ranking has read ${count(s.read)} of ${count(s.total)} memories.`;
  return s.paused && s.read < s.total ? `${read} It waits while you search or save.` : read;
}

/** The figures behind "details". */
export function carefulFigures(s: CarefulRankingStatus): string[] {
  const f = s.figures;
  if (!f) return [];
  return [
    `model: ${f.name} (${f.id}), ${f.dim} dimensions`,
    `re-reads the best ${f.depth} of each answer · weight ${f.weight}`,
    `progress: ${s.read} / ${s.total}${s.reading ? (s.paused ? ' (paused)' : ' (reading)') : ''}`,
    ...(f.loadMs !== undefined ? [`model loaded in ${(f.loadMs / 1000).toFixed(1)} s`] : []),
    ...(s.detail ? [`why unavailable: ${s.detail}`] : []),
  ];
}

/** The answer's line about careful ranking, and its figures. */
export function carefulNoteWords(n: CarefulNote): { line: string; figures: string[] } {
  if (!n.applied) return { line: `Careful ranking is still reading your memories: ${n.percent}%. This answer is ranked without it.`, figures: [] };
  return {
    line: 'Checked carefully: a larger model read the best answers a second time.',
    figures: [`model: ${n.model}`, `re-read the best ${n.depth} · weight ${n.weight}`, `read now: ${n.readNow} · ${n.ms} ms`],
  };
}
