import json, numpy as np
src=open(__import__('os').path.join(__import__('os').path.dirname(__file__), 'an.py')).read().replace("/tmp/deep3/{f}.json", "/tmp/deep3u/{f}.json")
exec(src)
rows = []
for f, qs in DATA.items():
    for q in qs:
        ev = set(q['evidence']); rows.append((f, q['half'], conf_feats(q['first10']), int(ev <= {i for i, _ in q['refined10']})))
def go(train=None):
    tr = [r for r in rows if train is None or r[1]==train]
    X = np.array([[r[2][0], r[2][1], r[2][3]] for r in tr]); y = np.array([r[3] for r in tr], float)
    files=[r[0] for r in tr]; cnt={f: files.count(f) for f in set(files)}; w=np.array([len(tr)/(2*cnt[f]) for f in files])
    b = fit(X, y, w); print('train', train, np.round(b,3))
    for f in ['paraphrase','locomo']:
        for h in ['A','B','all']:
            te=[r for r in rows if r[0]==f and (h=='all' or r[1]==h)]
            Xt=np.array([[r[2][0], r[2][1], r[2][3]] for r in te]); yt=np.array([r[3] for r in te],float); p=sig(b[0]+Xt@b[1:])
            print(f'  {f[:4]}{h} auc {auc(p,yt):.3f} inv.3 {np.mean(p<0.3):.3f} inv.5 {np.mean(p<0.5):.3f} base {yt.mean():.2f}')
    return b
go(); go('A'); go('B')
b=np.array([0.553,-3.161,0.62,7.655])
for f in ['paraphrase','locomo']:
    te=[r for r in rows if r[0]==f]; Xt=np.array([[r[2][0], r[2][1], r[2][3]] for r in te]); p=sig(b[0]+Xt@b[1:])
    print('shipped USE-lite', f, 'inv.3', round(float(np.mean(p<0.3)),3), 'auc', round(auc(p, np.array([r[3] for r in te],float)),3))
