// The scale bench's breakdown of a plain search (issue 13, `npm run bench:scale -- --search-only`):
// where a search's time goes, measured in the bench page (src/diagnostics/scale-page.ts) through
// the services and the real workers.
import { embedQueries } from '../embed/types';
import { services } from '../services';

/**
 * A plain search's parts, per query: the encoder alone; a keyword-only search through the services;
 * the encoder then the engine one after the other (`serial`) against the engine's keyword half sent
 * ahead while the encoder embeds (`ahead`), interleaved, each on a text of its own (no cache answers);
 * the full search through the services and its engine part.
 */
export type Breakdown = 'encoder' | 'keywordOnly' | 'serial' | 'ahead' | 'full' | 'inEngine';

export async function searchBreakdown(queries: string[]): Promise<Record<Breakdown, number[]>> {
  const r: Record<Breakdown, number[]> = { encoder: [], keywordOnly: [], serial: [], ahead: [], full: [], inEngine: [] };
  const s = services();
  const enc = s.currentEncoder().embedder;
  /** The encoder then the engine (its keyword half sent ahead or not), as the services' search does. */
  const engineAfterEncoder = async (text: string, ahead: boolean) => {
    const t0 = performance.now();
    if (ahead) void s.engine.prepareSearch?.(text, { topK: 10 });
    const [vector] = await embedQueries(enc, [text]);
    await s.engine.search({ text, vector: vector! }, { topK: 10, now: Date.now() });
    return performance.now() - t0;
  };
  for (const [i, q] of queries.entries()) {
    let t0 = performance.now();
    await embedQueries(enc, [`${q} `]); // another text: a query cache would not answer it
    r.encoder.push(performance.now() - t0);
    t0 = performance.now();
    await s.search(`${q}  `, { topK: 10, semantic: false });
    r.keywordOnly.push(performance.now() - t0);
    // interleaved, alternating which goes first
    for (const ahead of i % 2 ? [true, false] : [false, true]) r[ahead ? 'ahead' : 'serial'].push(await engineAfterEncoder(`${q}${ahead ? ' ?' : ' !'}`, ahead));
    t0 = performance.now();
    await s.search(q, { topK: 10 });
    r.full.push(performance.now() - t0);
    r.inEngine.push((await s.engineStats()).lastSearchMs);
  }
  return r;
}
