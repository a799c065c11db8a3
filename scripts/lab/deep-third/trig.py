exec(open(__import__('os').path.join(__import__('os').path.dirname(__file__), 'an.py')).read())
# label: the refined top 10 (the answer the person sees) holds every evidence memory
rows = []
for f, qs in DATA.items():
    for q in qs:
        ev = set(q['evidence'])
        lab = int(ev <= {i for i, _ in q['refined10']})
        labF = int(ev <= {i for i, _ in q['first10']})
        rows.append((f, q['half'], conf_feats(q['first10']), conf_feats(q['refined10']), lab, labF))
def run(scale, label, train_half=None):
    tr = [r for r in rows if train_half is None or r[1] == train_half]
    X = np.array([[r[2 if scale=='first' else 3][0], r[2 if scale=='first' else 3][1], r[2 if scale=='first' else 3][3]] for r in tr])
    y = np.array([r[4 if label=='refined' else 5] for r in tr], float)
    files = [r[0] for r in tr]; n = len(tr)
    cnt = {f: files.count(f) for f in set(files)}
    w = np.array([n/(len(cnt)*cnt[f]) for f in files])
    b = fit(X, y, w)
    out = []
    for f in ['paraphrase','locomo']:
        for h in ['A','B','all']:
            te = [r for r in rows if r[0]==f and (h=='all' or r[1]==h)]
            Xt = np.array([[r[2 if scale=='first' else 3][k] for k in (0,1,3)] for r in te]); yt = np.array([r[4 if label=='refined' else 5] for r in te], float)
            p = sig(b[0] + Xt @ b[1:])
            out.append(f"{f[:4]}{h}: auc {auc(p,yt):.3f} inv.3 {np.mean(p<0.3):.3f} inv.5 {np.mean(p<0.5):.3f} meanp {p.mean():.2f} base {yt.mean():.2f}")
    print(scale, label, 'train', train_half, 'beta(bias,top,gap,spread)', np.round(b,3)); print('   ' + '\n   '.join(out))
for scale in ['first','refined']:
    run(scale, 'refined')
    run(scale, 'refined', 'A'); run(scale, 'refined', 'B')
# the shipped model on both scales
b = np.array([0.731, -4.43, -0.928, 10.487])
for si, scale in [(2,'first'),(3,'refined')]:
    for f in ['paraphrase','locomo']:
        te = [r for r in rows if r[0]==f]
        Xt = np.array([[r[si][k] for k in (0,1,3)] for r in te]); p = sig(b[0]+Xt@b[1:])
        print('shipped on', scale, f, 'inv.3', round(float(np.mean(p<0.3)),3), 'median', round(float(np.median(p)),3))
