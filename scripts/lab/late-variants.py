# Late-interaction variants measured offline over scripts/lab/dump-late.ts's dumps (docs/research/
# quality.md, "Third pass"): each variant re-ranks the shipped first pass's top 100 (before late
# interaction and speaker labels) and is reported on both dev files, whole and by fold
# (A = conv-26, conv-41, conv-43, para-dev-1, para-dev-3; B = the rest). A tool, not part of the app.
#   npx tsx scripts/lab/dump-late.ts all-MiniLM-L6-v2-int8 /tmp/dump 100
#   python3 scripts/lab/late-variants.py /tmp/dump [variant-name-substring]
# Needs numpy. The shipped row reproduces the TS eval within 0.3 points (the TS eval re-ranks a
# topK-10 run; this re-ranks the top 100 of a topK-100 run).
import json, math, re, sys
import numpy as np

FOLD_A = {'conv-26', 'conv-41', 'conv-43', 'para-dev-1', 'para-dev-3'}
ROOT = __file__.rsplit('/scripts/', 1)[0]
VOCAB = {v: k for k, v in json.load(open(f'{ROOT}/public/models/all-MiniLM-L6-v2-int8/tokenizer.json'))['model']['vocab'].items()}
STOP = set(open(f'{ROOT}/src/core/text/stopwords.ts').read().split('`')[1].split())
SENTENCE_END = {1012, 999, 1029, 1025}  # . ! ? ;

def unit(M): return M / np.maximum(np.linalg.norm(M, axis=-1, keepdims=True), 1e-12)
def is_stop(t): return VOCAB.get(int(t), '') in STOP
def is_punct(t): return re.fullmatch(r'[^\w]+', VOCAB.get(int(t), '')) is not None

def load(d, name, depth=30, idf_depth=100):
    J = json.load(open(f'{d}/{name}.json')); dim = J['dim']
    F = np.fromfile(f'{d}/{name}.f32', dtype=np.float32).reshape(-1, dim)
    convs = []
    for c in J['conversations']:
        mem = {}
        for m in c['memories']:
            t = m['tok'] or {'at': 0, 'ids': []}
            R = F[t['at']:t['at'] + len(t['ids'])]
            mem[m['id']] = dict(ids=np.array(t['ids'], dtype=np.int64), R=R, M=unit(R), v=unit(np.array(m['v'], dtype=np.float32)))
        gmean = np.concatenate([m['R'] for m in mem.values() if len(m['R'])]).mean(0)
        qs = []
        for q in c['queries']:
            t = q['tok']; R = F[t['at']:t['at'] + len(t['ids'])]; ids = np.array(t['ids'], dtype=np.int64)
            res = q['results']; n = len(res[:idf_depth]); df = {}
            for r in res[:idf_depth]:
                for tok in set(mem[r['id']]['ids'].tolist()) & set(ids.tolist()): df[tok] = df.get(tok, 0) + 1
            w = np.array([max(0.0, math.log((n + 1) / (df.get(tok, 0) + 0.5))) for tok in ids.tolist()])
            qs.append(dict(question=q['question'], ev=set(q['evidence']), ids=ids, R=R, M=unit(R), v=unit(np.array(q['v'], dtype=np.float32)), res=res, w=w,
                           fold='A' if c['sampleId'] in FOLD_A else 'B', tokmax=[(unit(R) @ mem[r['id']]['M'].T).max(axis=1) if len(mem[r['id']]['M']) else np.zeros(len(ids)) for r in res[:depth]]))
        convs.append(dict(mem=mem, qs=qs, gmean=gmean))
    return convs

def wmean(w, x): return float((w * x).sum() / w.sum()) if w.sum() > 0 else 0.0
def order(s): return [k for k, _ in sorted(s.items(), key=lambda x: (-x[1], x[0]))]

def late(c, q, weight=3.0, depth=30, spk=0.25, ms=None, extra=None):
    """(score + weight·maxSim) / (1 + weight) over the top `depth`, score / (1 + weight) below, + spk if named."""
    out = {}
    for i, r in enumerate(q['res']):
        s = r['score']
        if i < depth: s += weight * (ms(c, q, i) if ms else wmean(q['w'], q['tokmax'][i]))
        out[r['id']] = s / (1 + weight) + spk * r['spk']
    if extra: extra(c, q, out)
    return order(out)

def gap(q):
    s = [r['score'] for r in q['res']]
    return s[0] - s[1] if len(s) > 1 else 1.0

def rocchio(k, beta, gamma, depth=30):
    """+ gamma·(cos(q', m) − cos(q, m)) over the top `depth`, q' = q + beta·mean of the first pass's top k (unit E1 vectors)."""
    def extra(c, q, s):
        top = order(s); q2 = unit(q['v'] + beta * np.mean([c['mem'][i]['v'] for i in top[:k]], axis=0))
        for i in top[:depth]: s[i] += gamma * float(c['mem'][i]['v'] @ (q2 - q['v']))
    return extra

def segments(ids, minlen=3):
    out, start = [], 0
    for i, t in enumerate(ids):
        if int(t) in SENTENCE_END and i + 1 - start >= minlen: out.append((start, i + 1)); start = i + 1
    if len(ids) > start:
        if len(ids) - start < minlen and out: out[-1] = (out[-1][0], len(ids))
        else: out.append((start, len(ids)))
    return out

def sentence_delta(gamma, depth=30):
    """+ gamma·(best sentence's pooled token vector · query − whole memory's pooled vector · query)."""
    def extra(c, q, s):
        qv = unit(q['R'].mean(0))
        for i in order(s)[:depth]:
            m = c['mem'][i]
            if not len(m['R']): continue
            best = max(float(unit(m['R'][a:b].mean(0)) @ qv) for a, b in segments(m['ids']))
            s[i] += gamma * (best - float(unit(m['R'].mean(0)) @ qv))
    return extra

def query_mask(pred, factor):
    return lambda c, q, i: wmean(q['w'] * np.where([pred(t) for t in q['ids']], factor, 1.0), q['tokmax'][i])

def centred(c, q, i):
    mu = c['gmean']; d = c['mem'][q['res'][i]['id']]['R']
    return wmean(q['w'], (unit(q['R'] - mu) @ unit(d - mu).T).max(axis=1)) if len(d) else 0.0

def doc_pruned(c, q, i):
    m = c['mem'][q['res'][i]['id']]; keep = np.array([not (is_stop(t) or is_punct(t)) for t in m['ids']], dtype=bool)
    D = m['M'][keep] if keep.any() else m['M']
    return wmean(q['w'], (q['M'] @ D.T).max(axis=1)) if len(D) else 0.0

def minmax_blend(a, depth=30, spk=0.25):
    """min-max(score) + a·min-max(maxSim) over the top `depth` (each list's own 0..1), the rest below."""
    def fn(c, q):
        res = q['res'][:depth]; s = np.array([r['score'] for r in res]); m = np.array([wmean(q['w'], q['tokmax'][i]) for i in range(len(res))])
        mm = lambda x: (x - x.min()) / max(x.max() - x.min(), 1e-9)
        out = {r['id']: 10 + (mm(s)[i] + a * mm(m)[i]) / (1 + a) + spk * r['spk'] for i, r in enumerate(res)}
        out.update({r['id']: r['score'] / 4 + spk * r['spk'] for r in q['res'][depth:]})
        return order(out)
    return fn

def rrf(k, wm, depth=30, spk=0.25):
    """1/(k + first-pass rank) + wm/(k + MaxSim rank) over the top `depth`."""
    def fn(c, q):
        res = q['res'][:depth]; m = np.array([wmean(q['w'], q['tokmax'][i]) for i in range(len(res))])
        rank = np.empty(len(res)); rank[np.argsort(-m, kind='stable')] = np.arange(len(res))
        out = {r['id']: 10 + 1 / (k + i) + wm / (k + rank[i]) + 0.05 * r['spk'] for i, r in enumerate(res)}
        out.update({r['id']: r['score'] / 4 + spk * r['spk'] for r in q['res'][depth:]})
        return order(out)
    return fn

def plus_field(field, g):
    def extra(c, q, s):
        for r in q['res']: s[r['id']] += g * (r[field] or 0) / 4
    return extra

def length_penalty(lam):
    def extra(c, q, s):
        for i in s: s[i] -= lam * math.log1p(len(c['mem'][i]['ids']))
    return extra

VARIANTS = {
    'shipped (late 3 + speaker 0.25)': lambda c, q: late(c, q),
    'late weight 10': lambda c, q: late(c, q, weight=10),
    'query stopwords x0 in MaxSim': lambda c, q: late(c, q, ms=query_mask(is_stop, 0.0)),
    'query stopwords x0.5 in MaxSim': lambda c, q: late(c, q, ms=query_mask(is_stop, 0.5)),
    'query punctuation x0 in MaxSim': lambda c, q: late(c, q, ms=query_mask(is_punct, 0.0)),
    'doc stopwords+punctuation pruned': lambda c, q: late(c, q, ms=doc_pruned),
    'tokens centred (collection mean), late 5': lambda c, q: late(c, q, weight=5, ms=centred),
    'Rocchio k2 beta1 gamma0.25': lambda c, q: late(c, q, extra=rocchio(2, 1.0, 0.25)),
    'Rocchio k10 beta1 gamma0.25': lambda c, q: late(c, q, extra=rocchio(10, 1.0, 0.25)),
    'best sentence delta 0.1': lambda c, q: late(c, q, extra=sentence_delta(0.1)),
    'late 10 when first-pass gap < 0.05': lambda c, q: late(c, q, weight=10 if gap(q) < 0.05 else 3),
    'min-max both, a 2': minmax_blend(2.0),
    'RRF k10, MaxSim 1.5': rrf(10, 1.5),
    'length penalty 0.01 ln(1+tokens)': lambda c, q: late(c, q, extra=length_penalty(0.01)),
    'cosine -0.25 (less E1)': lambda c, q: late(c, q, extra=plus_field('cos', -0.25)),
}

def metrics(ranked, ev):
    top = ranked[:10]
    dcg = sum(1 / math.log2(i + 2) for i, x in enumerate(top) if x in ev)
    idcg = sum(1 / math.log2(i + 2) for i in range(min(10, len(ev))))
    mrr = next((1 / (i + 1) for i, x in enumerate(top) if x in ev), 0.0)
    return np.array([len(set(top) & ev) / len(ev), dcg / idcg, mrr, 1.0 if ranked and ranked[0] in ev else 0.0])

if __name__ == '__main__':
    d = sys.argv[1]; only = sys.argv[2] if len(sys.argv) > 2 else ''
    data = {n: load(d, n) for n in ['paraphrase', 'locomo']}
    print('variant | ' + ' | '.join(f'{n} {f}' for n in data for f in ['all', 'A', 'B']) + '   (R@10/nDCG@10/MRR@10/top-1)')
    for name, fn in VARIANTS.items():
        if only not in name: continue
        cells = []
        for n, convs in data.items():
            per = [(metrics(fn(c, q), q['ev']), q['fold']) for c in convs for q in c['qs']]
            for f in ['all', 'A', 'B']:
                cells.append('/'.join(f'{x:.1f}' for x in 100 * np.mean([m for m, fo in per if f == 'all' or fo == f], axis=0)))
        print(f'{name} | ' + ' | '.join(cells), flush=True)
