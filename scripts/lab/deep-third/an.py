import json, math, sys
import numpy as np
FOLD_A = {'conv-26','conv-41','conv-43','para-dev-1','para-dev-3'}
def load(f):
    d = json.load(open(f'/tmp/deep3/{f}.json'))
    qs = []
    for c in d:
        mem = {m['id']: (m['session'], i) for i, m in enumerate(c['memories'])}
        for q in c['queries']:
            q['conv'] = c['sampleId']; q['half'] = 'A' if c['sampleId'] in FOLD_A else 'B'; q['mem'] = mem; q['file'] = f
            qs.append(q)
    return qs
DATA = {f: load(f) for f in ['paraphrase', 'locomo']}
def conf_feats(scores):
    s = [x for _, x in scores[:10]]
    if not s: return (0,0,0,0)
    s1 = s[0]; top = min(1, max(0, s1))
    gap = 1 if len(s) < 2 else (min(1, max(0, (s1 - s[1]) / s1)) if s1 > 0 else 0)
    last = s[min(len(s), 10) - 1]
    spread = min(1, max(0, (s1 - last) / s1)) if s1 > 0 else 0
    return (top, gap, min(len(s), 10) / 10, spread)
def sig(z): return 1/(1+np.exp(-z))
def fit(X, y, w, l2=1e-3):
    X = np.hstack([np.ones((len(X),1)), X]); b = np.zeros(X.shape[1])
    for _ in range(60):
        p = sig(X @ b); g = X.T @ (w*(y-p)); H = (X.T * (w*p*(1-p))) @ X
        g[1:] -= l2*b[1:]; H[1:,1:] += l2*np.eye(len(b)-1)
        st = np.linalg.solve(H, g); b += st
        if np.abs(st).max() < 1e-10: break
    return b
def auc(p, y):
    o = np.argsort(p, kind='stable'); r = np.empty(len(p)); r[o] = np.arange(1, len(p)+1)
    pos = y.sum(); neg = len(y)-pos
    return (r[y==1].sum() - pos*(pos+1)/2)/(pos*neg) if pos and neg else float('nan')
