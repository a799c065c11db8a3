# A second encoder as a judge over the shipped ranking's top D (docs/research/quality.md, "Fourth
# pass"): final = the shipped score (late interaction 3 over the top 30, speaker 0.25) + w · cos(query,
# memory) in the judge's space, re-ordering the top D only (ranks below D untouched). Reports the
# judge alone (dense over the whole collection), the shipped row, a grid of (D, w) on both files and
# both folds, and the held-out choice: (D, w) fitted on fold A of both files (MRR + top-1), read on
# fold B, and the reverse. A tool, not part of the app.
#   npx tsx scripts/lab/dump-late.ts all-MiniLM-L6-v2-int8 /tmp/dump 100
#   python3 embed.py /tmp/dump <modeldir> <onnx> /tmp/emb/<judge>     (see the Fourth pass for the script)
#   python3 scripts/lab/judge-rerank.py /tmp/dump /tmp/emb/<judge>
import importlib.util, json, sys
import numpy as np

spec = importlib.util.spec_from_file_location('lv', __file__.replace('judge-rerank.py', 'late-variants.py'))
lv = importlib.util.module_from_spec(spec); spec.loader.exec_module(lv)

def judge_vectors(prefix, name):
    V = np.load(f'{prefix}-{name}.npy'); keys = json.load(open(f'{prefix}-{name}.keys.json'))
    return {tuple(k): V[i] for i, k in enumerate(keys)}

def shipped_scores(q, weight=3.0, depth=30, spk=0.25):
    out = {}
    for i, r in enumerate(q['res']):
        s = r['score'] + (weight * lv.wmean(q['w'], q['tokmax'][i]) if i < depth else 0.0)
        out[r['id']] = s / (1 + weight) + spk * r['spk']
    return out

def rerank(base, J, D, w):
    """src/core/pipeline/judge.ts: the top D by (score + w·max(0, cos)) / (1 + w), ties by id; the rest in order."""
    top = lv.order(base); head = top[:D]
    head = sorted(head, key=lambda i: (-(base[i] + w * max(0.0, J[i])) / (1 + w), i))
    return head + top[D:]

def prepare(d, prefix):
    data = {}
    import os
    for name in [n for n in ['paraphrase', 'locomo'] if os.path.exists(f'{prefix}-{n}.npy')]:
        convs = lv.load(d, name); J = json.load(open(f'{d}/{name}.json')); jv = judge_vectors(prefix, name)
        rows = []
        for c, cj in zip(convs, J['conversations']):
            sid = cj['sampleId']; mids = [m['id'] for m in cj['memories']]
            M = np.stack([jv[('m', sid, i)] for i in mids])
            for qi, q in enumerate(c['qs']):
                qv = jv[('q', sid, qi)]; cos = M @ qv
                dense = [mids[k] for k in np.argsort(-cos, kind='stable')]
                Jq = {mids[k]: float(cos[k]) for k in range(len(mids))}
                rows.append(dict(ev=q['ev'], fold=q['fold'], base=shipped_scores(q), J=Jq, dense=dense))
        data[name] = rows
    return data

def table(rows, fn):
    per = [(lv.metrics(fn(r), r['ev']), r['fold']) for r in rows]
    return {f: 100 * np.mean([m for m, fo in per if f == 'all' or fo == f], axis=0) for f in ['all', 'A', 'B']}

def fmt(v): return '/'.join(f'{x:.1f}' for x in v)

if __name__ == '__main__':
    d, prefix = sys.argv[1:3]
    data = prepare(d, prefix)
    print('row | ' + ' | '.join(f'{n} {f}' for n in data for f in ['all', 'A', 'B']) + '   (R@10/nDCG@10/MRR@10/top-1)')
    def show(label, fn):
        t = {n: table(rows, fn) for n, rows in data.items()}
        print(label + ' | ' + ' | '.join(fmt(t[n][f]) for n in data for f in ['all', 'A', 'B']), flush=True)
        return t
    show('judge dense alone', lambda r: r['dense'])
    show('shipped', lambda r: lv.order(r['base']))
    grid = {}
    for D in [10, 20, 30]:
        for w in [0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.75, 1.0, 2.0]:
            grid[(D, w)] = show(f'D {D} w {w}', lambda r, D=D, w=w: rerank(r['base'], r['J'], D, w))
    base = {n: table(rows, lambda r: lv.order(r['base'])) for n, rows in data.items()}
    # two rules for choosing (D, w) on one fold: the sum of MRR + top-1 over both files, and the
    # maximin (the file that gains least in MRR + top-1 against the shipped row gains most)
    rules = {'sum': lambda t, f: sum(t[n][f][2] + t[n][f][3] for n in data),
             'maximin': lambda t, f: min(t[n][f][2] + t[n][f][3] - base[n][f][2] - base[n][f][3] for n in data)}
    for rule, obj in rules.items():
        for fit, read in [('A', 'B'), ('B', 'A')]:
            best = max(grid, key=lambda k: (obj(grid[k], fit), -k[1], -k[0]))
            print(f'{rule}: fit on {fit}: D {best[0]} w {best[1]}; read on {read}: ' + '; '.join(
                f'{n} {fmt(base[n][read])} -> {fmt(grid[best][n][read])}' for n in data))
