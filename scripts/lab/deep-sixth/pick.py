# Sixth pass: which score should pick the reserved slots' candidates (keep 6, 3 slots, every query
# escalated, merged into the refined top 10), over the dump: the judge reader (w2), the judge's
# cosine alone, and RRF of the reader's rank with the refined ranking's rank (ranks 11-50 voted).
#   python3 scripts/lab/deep-sixth/pick.py /tmp/s7r/locomo.json /tmp/s7r/notes.json
import json, sys, math
sys.argv += []
FOLD_A = {'conv-26', 'conv-41', 'conv-43', 'para-dev-1', 'para-dev-3'}
K = 10
def metrics(ids, ev):
    ids = ids[:K]; rel = set(ev)
    return len(rel & set(ids)) / len(rel), next((1 / (i + 1) for i, x in enumerate(ids) if x in rel), 0)
def run(path, pick, m=6, s=3, pool='ship+near'):
    out = {}
    for fold in ('A', 'B'):
        R = M = 0; miss = rec = 0; n = 0
        for cv in json.load(open(path)):
            if ('A' if cv['sampleId'] in FOLD_A else 'B') != fold: continue
            for q in cv['queries']:
                P = q['refined10']; read = q['read']
                ids = [p['id'] for p in q['pool']] + q['nearest'][:20] + (q['refined'][:30] if 'r30' in pool else [])
                cand = [i for i in dict.fromkeys(ids) if i not in P and i in read]
                cand.sort(key=lambda i: (-pick(q, i), i))
                fin = P[:m] + cand[:s] + [x for x in P[m:]][:K - m - min(s, len(cand))]
                r, mr = metrics(fin, q['ev']); R += r; M += mr; n += 1
                for e in q['ev']:
                    if e not in P: miss += 1; rec += e in fin
        out[fold] = (round(100 * R / n, 1), round(100 * M / n, 1), round(rec / miss, 3))
    return out
def rrank(q):
    read = q['read']
    order = sorted(read, key=lambda i: (-read[i][0], i))
    return {i: k + 1 for k, i in enumerate(order)}
cache = {}
def rrf(q, i, c=10):
    key = id(q)
    if key not in cache: cache[key] = (rrank(q), {x: k + 1 for k, x in enumerate(q['refined'])})
    rr, pr = cache[key]
    return 1 / (c + rr.get(i, 999)) + 1 / (c + pr.get(i, 999))
picks = {
    'reader w2': lambda q, i: q['read'][i][0],
    'judge cosine': lambda q, i: q['read'][i][1],
    'rrf(reader, refined rank)': rrf,
    'reader + 0.1 if refined rank <= 30': lambda q, i: q['read'][i][0] + (0.1 if i in q['refined'][:30] else 0),
}
for path in sys.argv[1:]:
    for pool in ('ship+near', 'ship+near+r30'):
        for name, f in picks.items():
            cache.clear()
            print(path.split('/')[-1], pool, name, run(path, f, pool=pool))
