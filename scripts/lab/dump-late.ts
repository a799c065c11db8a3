// Dumps, per query of both dev files, the shipped ranking's top N *before* late interaction and the
// speaker stage (score, hybrid score, E1 cosine, whether the query names the memory's speaker
// label), with every memory's and query's token matrix (ids; vectors in a float32 side file) and
// E1 vector, so late-interaction variants can be measured offline (a tool, not part of the app).
//   npx tsx scripts/lab/dump-late.ts <encoder> <outDir> [topN]
// Writes <outDir>/<file>.json and <outDir>/<file>.f32 (token rows; each matrix's `at` is its first row).
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { calibrationFor, DEFAULT_PIPELINE_OPTIONS, DEFAULT_RANKING, namesLabel, runPipeline, speakerLabel, type TokenMatrix } from '../../src/core/pipeline';
import { loadLocomo } from '../lib/locomo';
import { attachTokens, featurizeAll } from '../lib/eval-systems';
import { resolveEncoder } from '../lib/node-embedder';
import { loadEmbed, prepare } from '../eval-locomo';

const FRAME = /^(?:(?:what|when|where|which|who|whom|whose|why|how(?: (?:long|much|many|often|far|old))?) (?:did|do|does|was|were|is|are|has|have|had|will|would|can|could|should)(?: (?:i|we|my|our|you))?|(?:did|do|does|was|were|is|are|has|have|had|can|could|should) (?:i|we|you))\s+/i;
export function stripFrame(q: string): string {
  const s = q.replace(FRAME, '').replace(/\s*\?+\s*$/, '').trim();
  return s.length >= 3 ? s : q;
}

async function main() {
  const [encoder, outDir, topNArg] = process.argv.slice(2);
  const topN = Number(topNArg ?? 100);
  mkdirSync(outDir, { recursive: true });
  const enc = await loadEmbed(encoder);
  const cal = calibrationFor(enc.id);
  const { loadNodeResources } = await import('../lib/resources-node');
  const res = await loadNodeResources();
  for (const data of ['paraphrase', 'locomo']) {
    const convs = await loadLocomo(`/work/shared/data/${data}-dev.json`);
    // QUERY_STRIP=1: the question's leading frame (wh-word + auxiliary [+ pronoun]) and its '?' removed (a lab variant)
    if (process.env.QUERY_STRIP === '1') for (const c of convs) for (const q of c.queries) q.question = stripFrame(q.question);
    const prepared = await prepare(convs, enc.embed, { dim: enc.dim, embedQueries: enc.embedQueries });
    const feats = await featurizeAll(prepared, res, enc.embed);
    await attachTokens(prepared, feats, resolveEncoder(enc.id));
    const fd = openSync(`${outDir}/${data}.f32`, 'w');
    let rows = 0;
    const put = (m: TokenMatrix | undefined) => {
      if (!m) return null;
      const at = rows;
      writeSync(fd, Buffer.from(m.vectors.buffer, m.vectors.byteOffset, m.vectors.byteLength));
      rows += m.ids.length;
      return { at, ids: Array.from(m.ids) };
    };
    const out: unknown[] = [];
    for (const pc of prepared) {
      const f = feats.get(pc)!;
      const memories = pc.conv.memories.map((m) => ({ id: m.id, text: m.text, session: m.session, v: Array.from(pc.index.vectorOf(m.id) ?? []), tok: put(f.tokensOf?.(m.id)) }));
      const queries = pc.queries.map((q) => {
        const ranking = { ...DEFAULT_RANKING, ...cal.ranking, lateInteraction: 0, speakerLabel: 0 };
        const r = runPipeline(
          { hybrid: pc.index, spaces: f.spaces, matrix: f.matrix, sessionOf: f.sessionOf, neighboursOf: f.neighboursOf, now: 0, ranking, hybridConfig: cal.hybrid },
          { text: q.question, features: f.queryFeatures.get(q)! },
          { ...DEFAULT_PIPELINE_OPTIONS, topK: topN, assocHops: 0 },
        );
        return {
          question: q.question, category: q.category, evidence: q.evidence, v: Array.from(q.vector ?? []), tok: put(f.queryTokens?.get(q)),
          results: r.map((x) => {
            const label = speakerLabel(pc.index.peek(x.id)?.text ?? '');
            return { id: x.id, score: x.score, hybrid: x.hybridScore, e1: x.spaces.sims.E1 ?? null, cov: x.why.coverage ?? 0, cos: x.why.cosine, bm25: x.why.bm25, spk: label !== undefined && namesLabel(q.question, label) ? 1 : 0 };
          }),
        };
      });
      out.push({ sampleId: pc.conv.sampleId, memories, queries });
    }
    closeSync(fd);
    writeFileSync(`${outDir}/${data}.json`, JSON.stringify({ dim: enc.dim, conversations: out }));
    console.log(`${data}: ${out.length} conversations, ${rows} token rows`);
  }
  await enc.dispose();
}
void main();
