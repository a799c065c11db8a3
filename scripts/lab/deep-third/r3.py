exec(open(__import__('os').path.join(__import__('os').path.dirname(__file__), 'read.py')).read())
BF = np.array([1.644, -3.871, -0.288, 8.975])   # first-pass scale, all data
BR = np.array([-1.014, -1.363, -1.974, 13.612])  # refined scale
def conf(q, b, scale):
    t, g, c, s = conf_feats(q[scale]); return sig(b[0] + b[1]*t + b[2]*g + b[3]*s)
def deeprow(cfg, w, esc, prim, mode='max', thr=0.3):
    acc = {}
    for f, qs in DATA.items():
        for q in qs:
            base = [i for i, _ in q['refined10']]
            e = esc(q) < thr
            ranked = merge(q, reader_scores(q, cfg, prim), w, prim, mode) if e else base
            for key in [(f,'all'), (f, q['half'])]:
                a = acc.setdefault(key, [0]*8)
                r, m, miss, rec = metrics(ranked, q['evidence'], set(base)); r0, m0, _, _ = metrics(base, q['evidence'], set(base))
                a[0]+=r; a[1]+=m; a[2]+=miss; a[3]+=rec; a[4]+=1; a[5]+=r0; a[6]+=m0; a[7]+=e
    print(' | '.join(f"{f[:4]}{h}: R {100*a[0]/a[4]:.1f} ({100*(a[0]-a[5])/a[4]:+.2f}) MRR {100*a[1]/a[4]:.1f} ({100*(a[1]-a[6])/a[4]:+.2f}) rec {a[3]/max(1,a[2]):.3f} inv {a[7]/a[4]:.3f}" for (f, h), a in sorted(acc.items())), flush=True)
for thr in [0.3, 0.5]:
  for trig, esc, prim in [('first-scale trigger, merge into first', lambda q: conf(q, BF, 'first10'), 'first'), ('first-scale trigger, merge into refined', lambda q: conf(q, BF, 'first10'), 'refined'), ('refined-scale trigger, merge into refined', lambda q: conf(q, BR, 'refined10'), 'refined')]:
    print(f'== thr {thr} {trig}')
    for name, cfg, w in [('old reader', {'a':0,'d':1}, 0.5), ('old reader + tcredit .8', {'a':0,'d':1,'rho':0.8}, 0.5), ('maxsim', {'a':1}, 0.5), ('maxsim+names+time+tcredit deep10', {'a':1,'b':0.1,'c':0.1,'rho':0.8}, 0.5), ('maxsim+names+time+tcredit deep50', {'a':1,'b':0.1,'c':0.1,'rho':0.8,'deep':50}, 0.5)]:
        print(name.ljust(36), end=' '); deeprow(cfg, w, esc, prim, thr=thr)
