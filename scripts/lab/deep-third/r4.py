exec(open(__import__('os').path.join(__import__('os').path.dirname(__file__), 'r3.py')).read().split("for thr in")[0])
W = {'meaning':0.35,'spaces':0.1,'words':0.35,'names':0.1,'time':0.1}
_rs = reader_scores
def reader_scores(q, cfg, prim='refined'):
    if 'L' not in cfg: return _rs(q, cfg, prim)
    pool = pool_info(q, 'pool' if prim=='refined' else 'poolFirst')
    ids = list(pool.keys()) + [i for i, _ in q[prim][10:cfg.get('deep', 10)] if i not in pool]
    C = {c['id']: c for c in q['cands']}; s = {}
    for i in ids:
        pa = C[i]['parts']; num = sum(W[k]*v for k, v in pa.items()); den = sum(W[k] for k in pa)
        s[i] = (num + cfg['L']*C[i]['ms'])/(den + cfg['L'])
    rho = cfg.get('rho', 0)
    if rho:
        s2 = dict(s)
        for i, p in pool.items():
            for st, seed, det in p['via']:
                if st == 'temporal' and 'session' not in det and seed in s:
                    s2[i] = max(s2[i], rho*(1 if det.startswith('1 ') else 0.8)*s[seed])
        s = s2
    return s
for thr, trig, esc, prim in [(0.3, 'first-scale, into first', lambda q: conf(q, BF, 'first10'), 'first'), (1.01, 'every query, into refined', lambda q: 0, 'refined'), (1.01, 'every query, into first', lambda q: 0, 'first')]:
    print(f'== thr {thr} {trig}')
    for name, cfg in [('old', {'a':0,'d':1}), ('L0.5', {'L':0.5}), ('L1', {'L':1}), ('L2', {'L':2}), ('L1 rho.8', {'L':1,'rho':0.8}), ('L1 deep50', {'L':1,'deep':50}), ('L2 rho.8 deep30', {'L':2,'rho':0.8,'deep':30})]:
        print(name.ljust(18), end=' '); deeprow(cfg, 0.5, esc, prim, thr=thr)
