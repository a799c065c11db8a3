// Lab (a tool, not part of the app): fits the deep-search trigger's confidence, an estimated
// probability that the primary top 10 holds an evidence memory, on the per-query rows written by
//   npx tsx scripts/lab/context-lab.ts <encoder> --conf rows.json
// then   npx tsx scripts/lab/fit-confidence.ts rows.json
// Logistic regression (Newton / IRLS with a small L2 penalty), each file weighted to the same total
// so the larger LoCoMo file does not decide alone. Prints the coefficients per feature set, the
// AUC and log-loss per file, a reliability table and the invocation rate per threshold.
import { readFileSync } from 'node:fs';

interface Row { file: string; top: number; gap: number; count: number; spread?: number; s10: number; evidence: number; hit: number; all: number }
type Feat = (r: Row) => number;
// LABEL=all: the top 10 holds every evidence memory (default: at least one)
const label = (r: Row): number => (process.env.LABEL === 'all' ? r.all : r.hit);

const FEATS: Record<string, Feat> = {
  top: (r) => r.top,
  gap: (r) => r.gap,
  count: (r) => r.count,
  spread: (r) => r.spread ?? (r.top > 0 ? (r.top - r.s10) / r.top : 0),
  evidence: (r) => r.evidence,
};

function fit(rows: Row[], w: number[], feats: Feat[], l2 = 1e-3): number[] {
  const d = feats.length + 1;
  let beta = new Array<number>(d).fill(0);
  const x = rows.map((r) => [1, ...feats.map((f) => f(r))]);
  for (let it = 0; it < 50; it++) {
    const g = new Array<number>(d).fill(0);
    const H = Array.from({ length: d }, () => new Array<number>(d).fill(0));
    rows.forEach((r, i) => {
      const z = x[i].reduce((a, v, j) => a + v * beta[j], 0);
      const p = 1 / (1 + Math.exp(-z));
      for (let j = 0; j < d; j++) {
        g[j] += w[i] * (label(r) - p) * x[i][j];
        for (let k = 0; k < d; k++) H[j][k] += w[i] * p * (1 - p) * x[i][j] * x[i][k];
      }
    });
    for (let j = 1; j < d; j++) {
      g[j] -= l2 * beta[j];
      H[j][j] += l2;
    }
    const step = solve(H, g);
    beta = beta.map((b, j) => b + step[j]);
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  return beta;
}

function solve(A: number[][], b: number[]): number[] {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]]);
  for (let c = 0; c < n; c++) {
    let p = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(M[r][c]) > Math.abs(M[p][c])) p = r;
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r][c] / M[c][c];
      for (let k = c; k <= n; k++) M[r][k] -= f * M[c][k];
    }
  }
  return M.map((row, i) => row[n] / M[i][i]);
}

function auc(ps: number[], ys: number[]): number {
  const idx = ps.map((p, i) => i).sort((a, b) => ps[a] - ps[b]);
  let rank = 0;
  let pos = 0;
  let sum = 0;
  idx.forEach((i) => {
    rank++;
    if (ys[i]) {
      pos++;
      sum += rank;
    }
  });
  const neg = ys.length - pos;
  return pos && neg ? (sum - (pos * (pos + 1)) / 2) / (pos * neg) : NaN;
}

const rows = JSON.parse(readFileSync(process.argv[2], 'utf8')) as Row[];
const files = [...new Set(rows.map((r) => r.file))];
const perFile = new Map(files.map((f) => [f, rows.filter((r) => r.file === f).length]));
const w = rows.map((r) => rows.length / (files.length * perFile.get(r.file)!));
for (const f of files) {
  const rs = rows.filter((r) => r.file === f);
  console.log(`${f}: ${rs.length} queries, hit@10 ${(rs.reduce((a, r) => a + label(r), 0) / rs.length).toFixed(3)}`);
}
const sets = [['top'], ['top', 'gap'], ['top', 'gap', 'count'], ['top', 'gap', 'spread'], ['top', 'gap', 'evidence'], ['top', 'spread']];
for (const names of sets) {
  const feats = names.map((n) => FEATS[n]);
  const beta = fit(rows, w, feats);
  const p = (r: Row) => 1 / (1 + Math.exp(-(beta[0] + feats.reduce((a, f, j) => a + beta[j + 1] * f(r), 0))));
  const parts = files.map((f) => {
    const rs = rows.filter((r) => r.file === f);
    const ps = rs.map(p);
    const ll = -rs.reduce((a, r, i) => a + (label(r) ? Math.log(ps[i]) : Math.log(1 - ps[i])), 0) / rs.length;
    const inv = [0.3, 0.5, 0.7].map((t) => (ps.filter((x) => x < t).length / rs.length).toFixed(2)).join('/');
    return `${f} AUC ${auc(ps, rs.map(label)).toFixed(3)} logloss ${ll.toFixed(3)} mean p ${(ps.reduce((a, b) => a + b, 0) / ps.length).toFixed(3)} inv@.3/.5/.7 ${inv}`;
  });
  console.log(`[${names.join(', ')}] beta ${beta.map((b) => b.toFixed(3)).join(' ')}\n   ${parts.join('\n   ')}`);
  if (names.join() === (process.env.SHOW ?? 'top,gap')) {
    for (const f of files) {
      const rs = rows.filter((r) => r.file === f);
      const bins = [0, 0.2, 0.4, 0.6, 0.8, 1.01];
      const line = bins.slice(0, -1).map((lo, i) => {
        const inBin = rs.filter((r) => p(r) >= lo && p(r) < bins[i + 1]);
        return inBin.length ? `[${lo.toFixed(1)}-${bins[i + 1].toFixed(1)}) n ${inBin.length} hit ${(inBin.reduce((a, r) => a + label(r), 0) / inBin.length).toFixed(2)}` : '';
      });
      console.log(`   reliability ${f}: ${line.filter(Boolean).join('; ')}`);
    }
  }
}
