exec(open(__import__('os').path.join(__import__('os').path.dirname(__file__), 'an.py')).read())
import itertools
K = 10
def metrics(ranked, ev, primtop):
    top = ranked[:K]; evs = set(ev)
    r = len(evs & set(top)) / len(evs)
    m = next((1/(i+1) for i, x in enumerate(top) if x in evs), 0)
    miss = [e for e in ev if e not in primtop]; rec = sum(1 for e in miss if e in top)
    return r, m, len(miss), rec
def pool_info(q, which='pool'):
    return {p['id']: p for p in q[which]}
def reader_scores(q, cfg, prim='refined'):
    """cfg: a (maxSim), b (names), c (time), d (old reader), rho (temporal credit), deep (ranks 11-N read)"""
    pool = pool_info(q, 'pool' if prim=='refined' else 'poolFirst')
    prank = {i: k for k, (i, _) in enumerate(q[prim])}
    ids = list(pool.keys()) + [i for i, _ in q[prim][10:cfg.get('deep', 10)] if i not in pool]
    C = {c['id']: c for c in q['cands']}
    s = {}
    for i in ids:
        c = C[i]; pa = c['parts']
        v = cfg['a']*c['ms'] + cfg.get('b',0)*pa.get('names',0) + cfg.get('c',0)*pa.get('time',0) + cfg.get('d',0)*c['rd'] + cfg.get('w',0)*pa.get('words',0)
        s[i] = v
    rho = cfg.get('rho', 0)
    if rho:
        s2 = dict(s)
        for i, p in pool.items():
            for st, seed, det in p['via']:
                if st == 'temporal' and 'session' not in det and seed in s:
                    dec = 1 if det.startswith('1 ') else 0.8
                    s2[i] = max(s2[i], rho*dec*s[seed])
        s = s2
    return s
def merge(q, s, w, prim='refined', mode='max'):
    P = q[prim + '10']; pmax = max([x for _, x in P] + [1e-9]); rmax = max(list(s.values()) + [1e-9])
    out = {}
    for i, x in P: out[i] = (1-w)*x/pmax
    for i, v in s.items():
        val = w*v/rmax
        if mode == 'max': out[i] = max(out.get(i, -1), val)
        else: out[i] = out.get(i, 0) + val
    return sorted(out, key=lambda i: (-out[i], i))
def evalcfg(cfg, w, qsel, prim='refined', mode='max'):
    acc = {}
    for f, qs in DATA.items():
        for q in qs:
            if not qsel(q): continue
            base = [i for i, _ in q['refined10']]
            ranked = merge(q, reader_scores(q, cfg, prim), w, prim, mode)
            for key in [(f, 'all'), (f, q['half'])]:
                a = acc.setdefault(key, [0,0,0,0,0,0,0])
                r, m, miss, rec = metrics(ranked, q['evidence'], set(base)); r0, m0, _, _ = metrics(base, q['evidence'], set(base))
                a[0]+=r; a[1]+=m; a[2]+=miss; a[3]+=rec; a[4]+=1; a[5]+=r0; a[6]+=m0
    return {k: (100*a[0]/a[4], 100*a[1]/a[4], a[3]/max(1,a[2]), 100*a[5]/a[4], 100*a[6]/a[4], a[4]) for k, a in acc.items()}
def show(name, res):
    print(name.ljust(34), ' | '.join(f"{f[:4]}{h}: R {v[0]:.1f} ({v[0]-v[3]:+.1f}) MRR {v[1]:.1f} ({v[1]-v[4]:+.1f}) rec {v[2]:.3f}" for (f, h), v in sorted(res.items()) ), flush=True)
