exec(open(__import__('os').path.join(__import__('os').path.dirname(__file__), 'read.py')).read())
# a learned linear re-ranker over the candidate set (pool over the refined top 10 + refined ranks 11-50):
# is there an offline blend that recovers much more? fit on one half, test on the other (both files)
def feats(q):
    pool = pool_info(q, 'pool'); ref = dict((i, x) for i, x in q['refined']); rk = {i: k for k, (i, _) in enumerate(q['refined'])}
    ids = list(dict.fromkeys(list(pool) + [i for i, _ in q['refined'][:50]]))
    C = {c['id']: c for c in q['cands']}
    pmax = max(ref.values()) if ref else 1
    msv = {i: C[i]['ms'] for i in ids}; mmax = max(msv.values()) or 1
    rows = []
    for i in ids:
        c = C[i]; pa = c['parts']; p = pool.get(i)
        tcred = 0; ecred = 0; ccred = 0
        if p:
            for st, seed, det in p['via']:
                sc = ref.get(seed, 0)/pmax
                if st == 'temporal': tcred = max(tcred, sc * (1 if det.startswith('1 ') else 0.7 if det.startswith('2 ') else 0.4))
                if st == 'entity': ecred = max(ecred, sc)
                if st == 'community': ccred = max(ccred, sc)
        r = rk.get(i, 60)
        rows.append((i, [ref.get(i, 0)/pmax, 1.0 if r < 10 else 0.0, 1/(1+r), msv[i]/mmax, c['ms'], pa.get('names', 0), pa.get('time', 0), pa.get('words', 0), c['rd'], tcred, ecred, ccred]))
    return rows
NAMES = ['pscore','top10','1/rank','ms/max','ms','names','time','words','oldrd','tcred','ecred','ccred']
DS = []
for f, qs in DATA.items():
    for q in qs:
        fr = feats(q); ev = set(q['evidence'])
        DS.append((f, q['half'], q, [i for i, _ in fr], np.array([x for _, x in fr]), np.array([1.0 if i in ev else 0.0 for i, _ in fr])))
def train(half, cols, l2=1e-2):
    X = np.vstack([d[4][:, cols] for d in DS if d[1] == half]); y = np.concatenate([d[5] for d in DS if d[1] == half])
    fw = {f: 1/sum(len(d[5]) for d in DS if d[1]==half and d[0]==f) for f in ['paraphrase','locomo']}
    w = np.concatenate([np.full(len(d[5]), fw[d[0]]) for d in DS if d[1] == half]); w = w/w.mean()
    return fit(X, y, w, l2)
def test(b, cols, half):
    out = {}
    for d in DS:
        if d[1] != half: continue
        f, _, q, ids, X, y = d
        s = b[0] + X[:, cols] @ b[1:]
        ranked = [ids[k] for k in np.lexsort((ids, -s))]
        base = [i for i, _ in q['refined10']]
        r, m, miss, rec = metrics(ranked, q['evidence'], set(base)); r0, m0, _, _ = metrics(base, q['evidence'], set(base))
        a = out.setdefault(f, [0]*7); a[0]+=r; a[1]+=m; a[2]+=miss; a[3]+=rec; a[4]+=1; a[5]+=r0; a[6]+=m0
    return ' | '.join(f"{f[:4]}{half}: R {100*a[0]/a[4]:.1f} ({100*(a[0]-a[5])/a[4]:+.1f}) MRR {100*a[1]/a[4]:.1f} ({100*(a[1]-a[6])/a[4]:+.1f}) rec {a[3]/max(1,a[2]):.3f}" for f, a in out.items())
for cols in [[0,1,2], [0,1,2,3,4], [0,1,2,3,4,5,6,9], list(range(12))]:
    for tr, te in [('A','B'),('B','A')]:
        b = train(tr, cols)
        print([NAMES[c] for c in cols], 'train', tr, np.round(b,2)); print('   ', test(b, cols, te), flush=True)
