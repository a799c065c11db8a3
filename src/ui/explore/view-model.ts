// Pure mapping from what the services return (RecallView[], DivergenceView) to what the graph and
// the results list draw. No React, no services: tested in Node.
import { imageRefs } from '../../core/images';
import type { MediaRef } from '../../core/types';
import type { GraphDepth, GraphFilters, GraphModelInput, RecallResultInput, DivergenceInput } from '../graph';
import type { DivergenceView, RecallView } from '../../services';
import type { MemoryId } from '../../core/types';
import { happenedAt, isClose } from '../app/format';
import { foundWords, WAY_SHORT } from '../../core/deep';
import type { FoundBy } from '../graph';
import { MODEL_REASON_PREFIX } from '../../protocol/engine';

/** A result deeper search or iterative search added: how (plain words) and the figures behind it. */
export interface FoundRow extends FoundBy {
  /** For "details": the reader's score or grade, its reasons, the pass's query. */
  figures: string;
}

/** The judge's cosine from which a deep hit is called "close in meaning, by careful ranking" (MPNet: related texts ~0.3 and up). */
export const JUDGE_CLOSE = 0.3;
/** The language model's score from which a deep hit it read counts as close (what it calls a good match; deep search's hit score, adaptive.ts). */
export const MODEL_CLOSE = 0.5;
/** A deep hit the language model on this computer read (its reasons carry the model's prefix). */
const modelRead = (d: RecallView['result']['deep']): boolean => d?.reasons.some((r) => r.startsWith(MODEL_REASON_PREFIX)) === true;

/**
 * How a result was added, or undefined for one the first search found. Deeper search: a memory
 * outside the first results (its pool ways, seed 003 B); iterative search: the pass that added it.
 */
export function foundOf(v: RecallView): FoundRow | undefined {
  const d = v.result.deep;
  if (d && d.via.length > 0) {
    const judged = d.judge === undefined ? '' : ` · careful ranking's cosine ${d.judge.toFixed(2)}`;
    const figures = `reader score ${d.readerScore.toFixed(2)}${judged}${d.reasons.length ? ` · ${d.reasons.join('; ')}` : ''} · placed by ${d.source === 'constraint' ? 'the constraint rule' : d.source === 'deep' ? "the reader's score" : 'its first score'}`;
    // a way with a seed draws an edge from it; one found from the question itself (meaning) or a rule has none
    const seeded = d.via.find((w) => w.strategy !== 'meaning' && w.strategy !== 'rule');
    // read by careful ranking's judge (workers/engine-deep.ts): said in words, its cosine under details;
    // read by the language model on this computer: its first reason, in its words
    const said = d.reasons.find((r) => r.startsWith(MODEL_REASON_PREFIX));
    const how = said
      ? `${foundWords(d.via)}; ${said}`
      : d.judge === undefined
        ? foundWords(d.via)
        : `${foundWords(d.via)}; ${d.judge >= JUDGE_CLOSE ? 'close in meaning, by careful ranking' : 'read by careful ranking'}`;
    return { by: 'deep', how, short: WAY_SHORT[(seeded ?? d.via[0]).strategy], ...(seeded ? { seed: seeded.seed } : {}), figures };
  }
  const it = v.result.iterative;
  if (it) return { by: 'iterative', how: it.words, short: `pass ${it.pass}`, figures: `grade ${it.grade.toFixed(2)} · ${it.action === 'reformulate' ? `reformulated as "${it.query}"` : 'widened by one hop over shared names'}` };
  return undefined;
}

/** The first line of a memory, at most `max` characters (graph labels, list titles). */
export function labelOf(text: string, max = 60): string {
  const line = text.replace(/```[\s\S]*?```/g, ' ').split('\n').find((l) => l.trim()) ?? text;
  const s = line.replace(/\s+/g, ' ').trim();
  return s.length > max ? `${s.slice(0, max - 1).trimEnd()}…` : s;
}

/** Hop of an associative result: the length of its chain from the query (the result is the last hop). */
export function hopOf(view: RecallView): number | undefined {
  const r = view.result;
  if (r.mode !== 'associative') return undefined;
  const chain = r.chain ?? [];
  if (chain.length === 0) return 1;
  return chain[chain.length - 1]?.id === view.memory.id ? chain.length : chain.length + 1;
}

export interface ResultRow {
  id: MemoryId;
  mode: 'standard' | 'lateral' | 'associative';
  hop?: number;
  score: number;
  title: string;
  tags: string[];
  /** Spaces that made it relevant (above their high threshold). */
  relevantSpaces: string[];
  /** A standard hit that matched a word, is near in meaning, or stands out in a space (see nothingClose). */
  close: boolean;
  /** When the memory happened (epoch ms). */
  when: number;
  /** Added by deeper search or by looking again, and how. */
  found?: FoundRow;
  /** Read again by deeper search (a first result): the reader's score and reasons, for "details". */
  read?: { score: number; reasons: string[] };
  /** An earlier version of a memory (an edit replaced it): the list says so, it is not the memory as it stands. */
  earlier?: true;
}

/**
 * Did any word of the query reach the word vectors? E12 (per-word vectors) is then present in the
 * hits' similarities. When none did ("zzqx blorp", a word the app does not know), the sentence
 * encoder's meaning is noise: USE-lite maps unknown words to shared pieces, and "zzqx blorp" scored
 * cosine 0.47 against a code note of the sample. Then only a matched word makes a hit close.
 */
export function queryWordsKnown(views: readonly RecallView[]): boolean {
  return views.some((v) => v.result.spaces?.sims?.E12 !== undefined);
}

export function resultRows(views: readonly RecallView[]): ResultRow[] {
  const known = queryWordsKnown(views);
  const closeBy = (why: RecallView['result']['why']): boolean =>
    !!why && (why.matchedTerms.length > 0 || why.bm25 > 0 || (known && isClose(why)));
  return views.map((v) => ({
    id: v.memory.id,
    mode: v.result.mode,
    hop: hopOf(v),
    score: v.result.score,
    title: labelOf(v.memory.text, 140),
    tags: v.memory.tags,
    relevantSpaces: relevantSpacesOf(v),
    // a deep hit careful ranking's judge reads as close in meaning, or the language model scores as a good match, is close (its words say so)
    close:
      v.result.mode === 'standard' &&
      (closeBy(v.result.why) ||
        relevantSpacesOf(v).length > 0 ||
        (v.result.deep?.judge ?? 0) >= JUDGE_CLOSE ||
        (modelRead(v.result.deep) && v.result.deep!.readerScore >= MODEL_CLOSE)),
    when: happenedAt(v.memory),
    ...withFound(v),
    ...(v.memory.supersededBy ? { earlier: true as const } : {}),
  }));
}

function withFound(v: RecallView): Pick<ResultRow, 'found' | 'read'> {
  const found = foundOf(v);
  if (found) return { found };
  const d = v.result.deep;
  return d ? { read: { score: d.readerScore, reasons: d.reasons } } : {};
}

/**
 * Nothing is close when no standard hit is: lateral and associative results hang off the standard
 * ones, so with only noise to start from they are noise too ("zzqx blorp").
 */
export function nothingClose(rows: readonly ResultRow[]): boolean {
  return rows.length > 0 && !rows.some((r) => r.close);
}

function relevantSpacesOf(v: RecallView): string[] {
  return v.result.spaces?.relevance?.relevantSpaces.slice() ?? [];
}

/** Labels for every memory the graph may draw (results, chain members, recent memories). */
export function labelsFor(views: readonly RecallView[], divergence: DivergenceView | null, extra: ReadonlyMap<MemoryId, string> = new Map()): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [id, l] of extra) out[id] = l;
  if (divergence?.show) for (const r of divergence.recent) out[r.id] = labelOf(r.label, 48);
  for (const v of views) out[v.memory.id] = labelOf(v.memory.text, 48);
  return out;
}

export interface GraphInputArgs {
  query: string;
  views: readonly RecallView[];
  divergence: DivergenceView | null;
  showTags?: boolean;
  depth?: GraphDepth;
  filters?: GraphFilters;
  /** Labels of chain members that are not results themselves (fetched by id). */
  extraLabels?: ReadonlyMap<MemoryId, string>;
}

/** The memory's picture for its graph node (the first picture; its caption is its alt text). */
function pictureOf(m: { media?: MediaRef[] }): { picture?: { imageId: string; caption: string } } {
  const [ref] = imageRefs(m.media);
  return ref ? { picture: { imageId: ref.imageId, caption: ref.caption ?? '' } } : {};
}

export function graphInput({ query, views, divergence, showTags, depth, filters, extraLabels }: GraphInputArgs): GraphModelInput {
  const results: RecallResultInput[] = views.map((v) => ({
    id: v.memory.id,
    label: labelOf(v.memory.text, 48),
    score: Number.isFinite(v.result.score) ? v.result.score : 0,
    mode: v.result.mode,
    tags: v.memory.tags,
    chain: v.result.chain?.map((c) => ({ id: c.id, hop: c.hop, cosine: c.cosine })),
    when: happenedAt(v.memory),
    ...(v.via ? { via: v.via } : {}),
    ...pictureOf(v.memory),
    ...graphFound(v),
    ...(v.memory.supersededBy ? { earlier: true as const } : {}),
  }));
  // No red alert in the graph unless the banner shows: one node for the recent work it names.
  const meaning = divergence?.alerts.find((a) => a.embedder === 'E1');
  const div: DivergenceInput[] = divergence?.show
    ? [
        {
          spaceName: 'recent work',
          label: divergence.topic ? `Far from recent work: ${divergence.topic}` : 'Far from recent work',
          detail: `${divergence.recent.length} recent ${divergence.recent.length === 1 ? 'memory' : 'memories'} compared`,
          similarity: meaning?.similarity ?? Number.NaN,
          threshold: meaning?.threshold ?? Number.NaN,
          recentIds: divergence.recentIds.slice(0, 5),
        },
      ]
    : [];
  const when: Record<string, number> = {};
  if (divergence?.show) for (const r of divergence.recent) when[r.id] = r.createdAt;
  return {
    query: query || 'query',
    results,
    divergence: div,
    showTags: showTags ?? false,
    depth: depth ?? 4,
    filters,
    labels: labelsFor(views, divergence, extraLabels),
    when,
  };
}

function graphFound(v: RecallView): { found?: FoundBy } {
  const f = foundOf(v);
  return f ? { found: { by: f.by, how: f.how, short: f.short, ...(f.seed !== undefined ? { seed: f.seed } : {}) } } : {};
}
