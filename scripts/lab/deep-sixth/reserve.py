# Sixth pass, step 2: reserved-slot merges simulated over the dump (the judge reader w2's scores with
# one idf over the dump's union of candidates: an approximation; the figures that decide are the
# grid's, scripts/lib/eval-deep-grid.ts). Base = the refined top 10.
#   python3 scripts/lab/deep-sixth/reserve.py /tmp/s7r/locomo.json /tmp/s7r/notes.json
import json, sys, math, itertools, os

FOLD_A = {'conv-26', 'conv-41', 'conv-43', 'para-dev-1', 'para-dev-3'}
K = 10

def metrics(ids, ev):
    ids = ids[:K]; rel = set(ev)
    r = len(rel & set(ids)) / len(rel)
    mrr = next((1 / (i + 1) for i, x in enumerate(ids) if x in rel), 0)
    dcg = sum(1 / math.log2(i + 2) for i, x in enumerate(ids) if x in rel)
    idcg = sum(1 / math.log2(i + 2) for i in range(min(len(rel), K)))
    return r, dcg / idcg, mrr, 1 if ids and ids[0] in rel else 0

def load(path):
    out = []
    for cv in json.load(open(path)):
        fold = 'A' if cv['sampleId'] in FOLD_A else 'B'
        for q in cv['queries']:
            q['fold'] = fold
            out.append(q)
    return out

def pool_ids(q, pool):
    ids = []
    if 'ship' in pool: ids += [p['id'] for p in q['pool']]
    if 'near' in pool: ids += q['nearest'][:20]
    if 'f30' in pool: ids += q['first'][:30]
    if 'r30' in pool: ids += q['refined'][:30]
    if 'b3' in pool: ids += q['bridge3'][:20]
    if 'b1' in pool: ids += q['bridge1'][:20]
    return list(dict.fromkeys(ids))

def answer(q, pool, m, s, floor, t, base='refined10'):
    if q['conf'] >= t: return q['refined10']
    P = q[base]
    read = q['read']
    top = set(P)
    out = sorted((i for i in pool_ids(q, pool) if i not in top and i in read), key=lambda i: (-read[i][0], i))
    ref = max((read[i][0] for i in P if i in read), default=0)
    # floor: an outside candidate takes a slot only when the reader scores it >= floor x the reader's best of the primary top 10
    out = [i for i in out if read[i][0] >= floor * ref][:s]
    return P[:m] + out + [x for x in P[m:] if x not in out][:K - m - len(out)]

def score(qs, f):
    acc = [0, 0, 0, 0]; miss = rec = 0; esc = 0
    for q in qs:
        ids = f(q)
        for j, v in enumerate(metrics(ids, q['ev'])): acc[j] += v
        top = set(q['refined10']); fin = set(ids[:K])
        for e in q['ev']:
            if e not in top:
                miss += 1; rec += e in fin
    n = len(qs)
    return [round(100 * a / n, 1) for a in acc] + [round(rec / miss, 3) if miss else 0]

def main(lp, np_):
    files = {'locomo': load(lp), 'notes': load(np_)}
    pools = (os.environ.get('POOLS') or 'ship,ship+near,ship+near+b3').split(',')
    res = []
    for pool in pools:
      for base in (os.environ.get('BASES') or 'refined10').split(','):
        for m in range(int(os.environ.get('MMIN', '3')), 10):
            for s in range(1, 8):
                if m + s > K: continue
                for floor in (0,):
                    for t in (0.5, 0.7, 0.9, 1.01):
                        row = {'pool': pool, 'm': m, 's': s, 'floor': floor, 't': t, 'base': base}
                        for fname, qs in files.items():
                            for fold in ('A', 'B'):
                                sub = [q for q in qs if q['fold'] == fold]
                                row[f'{fname}{fold}'] = score(sub, lambda q: answer(q, pool, m, s, floor, t, base))
                            row[f'{fname}'] = score(qs, lambda q: answer(q, pool, m, s, floor, t, base))
                        res.append(row)
    base = {}
    for fname, qs in files.items():
        for fold in ('A', 'B', ''):
            sub = [q for q in qs if not fold or q['fold'] == fold]
            base[f'{fname}{fold}'] = score(sub, lambda q: q['refined10'])
    print('base', base)
    json.dump({'base': base, 'rows': res}, open('/tmp/s7r/reserve.json', 'w'))
    # choose on one half: MRR >= base on both files of that half, max LoCoMo recovered
    for fit, read in (('A', 'B'), ('B', 'A')):
        ok = [r for r in res if r[f'locomo{fit}'][2] >= base[f'locomo{fit}'][2] and r[f'notes{fit}'][2] >= base[f'notes{fit}'][2]]
        ok.sort(key=lambda r: (-r[f'locomo{fit}'][4], -r[f'locomo{fit}'][2]))
        for r in ok[:8]:
            print(f'fit {fit}:', {k: r[k] for k in ('pool', 'base', 'm', 's', 't')}, 'fit', r[f'locomo{fit}'], r[f'notes{fit}'], '| read', read, r[f'locomo{read}'], base[f'locomo{read}'], r[f'notes{read}'], base[f'notes{read}'])
    # the upper bound per pool: recovered if every reserved slot were right
    best = sorted(res, key=lambda r: -r['locomo'][4])[:5]
    for r in best: print('most recovered (all):', {k: r[k] for k in ('pool', 'base', 'm', 's', 't')}, r['locomo'], r['notes'])

main(*sys.argv[1:3])
