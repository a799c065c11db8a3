# Sixth pass: the grid's settings whose MRR@10 is at least the answer's without deep search on every
# cell (both files x both halves), best LoCoMo recoveredShare first (the shipping rule of issue 11).
#   python3 scripts/lab/deep-sixth/all-cells.py LOCOMO-grid.json NOTES-grid.json [N]
import json, sys
L = json.load(open(sys.argv[1]))['deepSearch']['grid']
N = json.load(open(sys.argv[2]))['deepSearch']['grid']
top = int(sys.argv[3]) if len(sys.argv) > 3 else 15
def key(r):
    res = r.get('reserve')
    return (r['base'], r['reader'], r['pool'], f'k{res["keep"]}s{res["slots"]}' if res else f'w{r["weight"]}', r['threshold'])
def idx(rows):
    out = {}
    for r in rows: out.setdefault(key(r), {})[r['fold']] = r
    return out
Li, Ni = idx(L), idx(N)
none = lambda rows, b: {r['fold']: r for r in rows if r['base'] == ('none-judged' if b == 'judged' else 'none')}
fmt = lambda r: f'{r["r10"]}/{r["ndcg10"]}/{r["mrr10"]}/{r["top1"]} rec {r["recoveredShare"]} inv {r["invocationRate"]}'
ok = []
for k in Li:
    if k[0].startswith('none') or k not in Ni: continue
    bl, bn = none(L, k[0]), none(N, k[0])
    if all(Li[k][f]['mrr10'] >= bl[f]['mrr10'] and Ni[k][f]['mrr10'] >= bn[f]['mrr10'] for f in ('A', 'B')):
        ok.append(k)
ok.sort(key=lambda k: -Li[k]['all']['recoveredShare'])
for k in ok[:top]:
    print(k, '| LoCoMo', ' ; '.join(f'{f} {fmt(Li[k][f])}' for f in ('all', 'A', 'B')), '| notes', ' ; '.join(f'{f} {fmt(Ni[k][f])}' for f in ('all', 'A', 'B')))
