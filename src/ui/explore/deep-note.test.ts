// How deeper search and looking again show in the list, the graph and the results card's note.
import { describe, expect, it } from 'vitest';
import { buildGraphModel, nodeAriaLabel } from '../graph';
import type { RecallView } from '../../services';
import type { DeepReportView } from '../../core/deep';
import { deepSearchFigures, deepSearchWords, iterativeWords } from './deep-note';
import { foundOf, graphInput, resultRows } from './view-model';

function view(id: string, extra: Partial<RecallView['result']> = {}): RecallView {
  return {
    memory: { id, text: `memory ${id}`, tags: [], importance: 0.5, createdAt: 0, updatedAt: 0, status: 'active' } as unknown as RecallView['memory'],
    result: { id, score: 0.5, mode: 'standard', hybridScore: 0, ...extra } as unknown as RecallView['result'],
    explanation: '',
  };
}

const seedView = view('s', { deep: { readerScore: 0.9, reasons: ['says "harbour"'], via: [], source: 'primary' } });
const deepView = view('d', {
  deep: { readerScore: 0.62, reasons: ['says "fog"'], via: [{ strategy: 'temporal', seed: 's', detail: '1 turn after' }, { strategy: 'entity', seed: 's', detail: '1 shared name' }], source: 'deep' },
});
const iterView = view('i', { iterative: { pass: 2, action: 'reformulate', query: 'foggy harbour', grade: 0.55, words: 'pass 2: searched again as "foggy harbour"' } });

describe('found by deeper search or by looking again', () => {
  it('a memory outside the first results carries how it was found; a first result read again carries the reader score only', () => {
    expect(foundOf(deepView)).toEqual({
      by: 'deep',
      how: 'said near a memory you found (1 turn after); shares a name with a memory you found (1 shared name)',
      short: 'nearby in time',
      seed: 's',
      figures: 'reader score 0.62 · says "fog" · placed by the reader\'s score',
    });
    expect(foundOf(iterView)).toMatchObject({ by: 'iterative', how: 'pass 2: searched again as "foggy harbour"', short: 'pass 2', figures: 'grade 0.55 · reformulated as "foggy harbour"' });
    expect(foundOf(seedView)).toBeUndefined();
    const rows = resultRows([seedView, deepView, iterView]);
    expect(rows[0].read).toEqual({ score: 0.9, reasons: ['says "harbour"'] });
    expect(rows[1].found?.by).toBe('deep');
    expect(rows[2].found?.by).toBe('iterative');
  });

  it('the graph rings them, draws an edge from the result that led to the deep one, and says how in the node name', () => {
    const m = buildGraphModel(graphInput({ query: 'fog', views: [seedView, deepView, iterView], divergence: null }));
    const node = (id: string) => m.nodes.find((n) => n.memoryId === id)!;
    expect(node('d').found).toMatchObject({ by: 'deep', short: 'nearby in time' });
    expect(node('s').found).toBeUndefined();
    const edge = m.edges.find((e) => e.kind === 'found');
    expect(edge).toMatchObject({ source: 'm:s', target: 'm:d', label: 'nearby in time', dashed: true });
    expect(nodeAriaLabel(node('d'))).toBe(
      'Standard memory: memory d, score 0.50, found by deeper search: said near a memory you found (1 turn after); shares a name with a memory you found (1 shared name)',
    );
    expect(nodeAriaLabel(node('i'))).toBe('Standard memory: memory i, score 0.50, found by looking again: pass 2: searched again as "foggy harbour"');
  });
});

describe('the results card note', () => {
  const report = (status: DeepReportView['status']): DeepReportView => ({
    status,
    mode: 'active',
    confidence: { value: 0.41, top: 0.5, gap: 0.2, count: 1, spread: 0.35 },
    threshold: 0.72,
    primaryIds: ['s'],
    pool: [
      { id: 's', primaryRank: 0, via: [] },
      { id: 'd', primaryRank: null, via: [{ strategy: 'temporal', seed: 's', detail: '1 turn after' }] },
      { id: 'e', primaryRank: null, via: [{ strategy: 'entity', seed: 's', detail: '1 shared name' }] },
    ],
    trimmed: 0,
    scores: [],
    timings: { expandMs: 1.2, readMs: 3.4, totalMs: 5 },
  });

  it('says in plain words what deeper search did, with the figures for details', () => {
    expect(deepSearchWords(report('merged'), 1)).toBe('Your first results looked unsure, so deeper search read 2 more memories and added 1.');
    expect(deepSearchWords(report('merged'), 0)).toBe('Your first results looked unsure, so deeper search read 2 more memories; none was a better match.');
    expect(deepSearchWords(report('timeout'), 0)).toBe('Deeper search ran out of time, so these are your first results.');
    expect(deepSearchWords(report('rate-limited'), 0)).toBe('Deeper search has reached its limit for this session, so it did not run again. These are your first results.');
    expect(deepSearchWords(report('shadow'), 0)).toContain('watch-only');
    expect(deepSearchWords(undefined, 0)).toBeNull();
    expect(deepSearchFigures(report('merged'))).toEqual([
      'status merged · mode active',
      // the spread ((s1 - sK) / s1) is the calibrated trigger's strongest signal: shown with the others
      'confidence 0.41 (top 0.50, gap 0.20, count 1.00, spread 0.35) below threshold 0.72',
      'pool 3 (1 first results; nearby in time 1, shared name 1, same group 0); trimmed to the token budget 0',
      'reader scores 0 · expand 1 ms · read 3 ms · total 5 ms',
    ]);
  });

  it('lists the passes after the first, and says so when nothing was good enough', () => {
    const it0 = { hard: true, abstained: false, stoppedBy: 'good-enough' as const, passes: [], explanation: ['pass 1: searched "x", 3 results, best grade 0.30', 'pass 2: reformulated as "y", added 3'] };
    expect(iterativeWords(it0)).toEqual({ lead: 'Kept looking until something good enough turned up:', lines: ['pass 2: reformulated as "y", added 3'], abstained: false });
    expect(iterativeWords({ ...it0, abstained: true, stoppedBy: 'max-iterations', explanation: [...it0.explanation, 'nothing good enough: the best grade 0.10 is below 0.2'] })?.lead).toBe(
      'Nothing good enough was found, even after looking again; these are the closest memories.',
    );
    expect(iterativeWords({ ...it0, stoppedBy: 'easy' })).toEqual({ lead: 'Your first search looked good enough, so it did not look again.', lines: [], abstained: false });
  });
});
