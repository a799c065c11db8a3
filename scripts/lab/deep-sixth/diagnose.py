# Sixth pass, step 1 (docs/research/quality.md "Sixth pass"): where each evidence turn missing from
# the refined top 10 is, from the dump of scripts/lib/eval-deep-dump.ts (DEEP_DUMP=...).
#   python3 scripts/lab/deep-sixth/diagnose.py /tmp/s7r/locomo.json [/tmp/s7r/notes.json]
import json, sys
from collections import Counter, defaultdict

FOLD_A = {'conv-26', 'conv-41', 'conv-43', 'para-dev-1', 'para-dev-3'}

def rank_of(lst, x):
    try: return lst.index(x) + 1
    except ValueError: return None

def bucket(r):
    if r is None: return 'absent'
    for b in (10, 30, 50, 100, 200):
        if r <= b: return f'<={b}'
    return 'absent'

def auc(pos, neg):
    # P(score of a positive < score of a negative): positives = queries with a missing turn, low confidence predicts them
    if not pos or not neg: return float('nan')
    s = 0.0
    for p in pos:
        for n in neg:
            s += 1.0 if p < n else 0.5 if p == n else 0.0
    return s / (len(pos) * len(neg))

def main(path):
    convs = json.load(open(path))
    rows = []
    qstats = []
    for cv in convs:
        mem = {m['id']: m for m in cv['memories']}
        fold = 'A' if cv['sampleId'] in FOLD_A else 'B'
        for q in cv['queries']:
            top = q['refined10']
            miss = [e for e in q['ev'] if e not in top and e in mem]
            qstats.append((q['conf'], len(miss) > 0, fold, q['cat']))
            poolvia = {p['id']: p['via'] for p in q['pool']}
            t1, t3 = top[:1], top[:3]
            for e in miss:
                me = mem[e]
                def near(seeds, w):
                    return any(mem[s]['s'] == me['s'] and abs(mem[s]['p'] - me['p']) <= w for s in seeds)
                def same_s(seeds): return any(mem[s]['s'] == me['s'] for s in seeds)
                def ent(seeds): return any(set(mem[s]['e']) & set(me['e']) for s in seeds)
                def spk(seeds): return any(mem[s]['sp'] == me['sp'] for s in seeds)
                # the reader's rank of e among the read candidates outside the refined top 10
                read = q['read']
                outside = sorted((i for i in read if i not in top), key=lambda i: (-read[i][0], i))
                rows.append(dict(
                    fold=fold, cat=q['cat'],
                    rR=rank_of(q['refined'], e), rF=rank_of(q['first'], e),
                    pool=e in poolvia, via=tuple(sorted(poolvia.get(e, []))) if e in poolvia else None,
                    poolPrimary=e in poolvia and not poolvia[e],
                    near20=(rank_of(q['nearest'], e) or 999) <= 20, nearR=rank_of(q['nearest'], e),
                    b1=rank_of(q['bridge1'], e), b3=rank_of(q['bridge3'], e),
                    s1=same_s(t1), s3=same_s(t3), n1_1=near(t1, 1), n1_3=near(t1, 3), n3_1=near(t3, 1), n3_3=near(t3, 3),
                    e1=ent(t1), e3=ent(t3), sp1=spk(t1), sp3=spk(t3),
                    readOut=rank_of(outside, e),
                    evidenceInTop=len(q['ev']) - len(miss),
                ))
    n = len(rows)
    pct = lambda k: f'{100*k/n:.1f}%' if n else '-'
    print(f'== {path}: {len(qstats)} queries, {sum(1 for s in qstats if s[1])} with a missing turn, {n} missing turns (A {sum(r["fold"]=="A" for r in rows)}, B {sum(r["fold"]=="B" for r in rows)})')
    print('rank in the refined deeper list:', dict(Counter(bucket(r['rR']) for r in rows)))
    print('rank in the first pass deeper list:', dict(Counter(bucket(r['rF']) for r in rows)))
    inpool = sum(r['pool'] for r in rows)
    print('in the shipped pool (over the first pass top 10):', inpool, pct(inpool), ' as a first-pass top-10 member:', sum(r['poolPrimary'] for r in rows))
    vias = Counter()
    for r in rows:
        if r['via']:
            for v in r['via']: vias[v] += 1
    print('  by via (a turn may have several):', dict(vias), ' only-one-way:', dict(Counter(r['via'][0] for r in rows if r['via'] and len(r['via']) == 1)))
    print('judge nearest top 20:', pct(sum(r['near20'] for r in rows)), ' top 50:', pct(sum((r['nearR'] or 999) <= 50 for r in rows)), ' top 100:', pct(sum((r['nearR'] or 999) <= 100 for r in rows)))
    for b in ('b1', 'b3'):
        print(f'bridge {b}: top10 {pct(sum((r[b] or 999) <= 10 for r in rows))} top30 {pct(sum((r[b] or 999) <= 30 for r in rows))} top50 {pct(sum((r[b] or 999) <= 50 for r in rows))}')
    for k in ('s1', 's3', 'n1_1', 'n1_3', 'n3_1', 'n3_3', 'e1', 'e3', 'sp1', 'sp3'):
        print(f'  {k}: {pct(sum(r[k] for r in rows))}', end='')
    print()
    # union ceilings
    def within(r, refined=50, pool=True, near=20, b=0):
        return ((r['rR'] or 999) <= refined) or (pool and r['pool']) or ((r['nearR'] or 999) <= near) or (b and (r['b3'] or 999) <= b)
    print('ceilings: pool', pct(sum(r['pool'] for r in rows)), '| pool+near20', pct(sum(r['pool'] or r['near20'] for r in rows)),
          '| pool+refined30', pct(sum(within(r, 30, True, 0) for r in rows)), '| pool+refined30+near20', pct(sum(within(r, 30, True, 20) for r in rows)),
          '| +bridge3 top30', pct(sum(within(r, 30, True, 20, 30) for r in rows)), '| refined50+pool+near50', pct(sum(within(r, 50, True, 50) for r in rows)))
    print('reader (judge w2) rank among read candidates outside the refined top 10:', dict(Counter(bucket(r['readOut']) if r['readOut'] and r['readOut'] > 10 else ('<=1' if r['readOut'] == 1 else '<=3' if r['readOut'] and r['readOut'] <= 3 else '<=10' if r['readOut'] else 'unread') for r in rows)))
    print('by category: missing turns', dict(sorted(Counter(r['cat'] for r in rows).items())),
          ' in pool', {c: f"{sum(r['pool'] for r in rows if r['cat']==c)}" for c in sorted({r['cat'] for r in rows})},
          ' reader top3 outside', {c: f"{sum((r['readOut'] or 999) <= 3 for r in rows if r['cat']==c)}" for c in sorted({r['cat'] for r in rows})})
    print('queries with a missing turn by category:', dict(sorted(Counter(s[3] for s in qstats if s[1]).items())), 'of', dict(sorted(Counter(s[3] for s in qstats).items())))
    for fold in ('all', 'A', 'B'):
        qs = [s for s in qstats if fold == 'all' or s[2] == fold]
        print(f'AUC (confidence separates queries with a missing turn), {fold}: {auc([s[0] for s in qs if s[1]], [s[0] for s in qs if not s[1]]):.3f}')
    return rows



def table(path):
    """The quality.md table: per category and in all, where the missing turns are."""
    import io, contextlib
    with contextlib.redirect_stdout(io.StringIO()):
        rows = main(path)
    cols = [
        ('turns', lambda r: True),
        ('rank 11-30', lambda r: r['rR'] and 10 < r['rR'] <= 30),
        ('31-50', lambda r: r['rR'] and 30 < r['rR'] <= 50),
        ('51-100', lambda r: r['rR'] and 50 < r['rR'] <= 100),
        ('101-200', lambda r: r['rR'] and 100 < r['rR'] <= 200),
        ('absent', lambda r: not r['rR'] or r['rR'] > 200),
        ('pool', lambda r: r['pool']),
        ('temporal', lambda r: bool(r['via']) and 'temporal' in r['via']),
        ('entity', lambda r: bool(r['via']) and 'entity' in r['via']),
        ('community', lambda r: bool(r['via']) and 'community' in r['via']),
        ('judge 20', lambda r: r['near20']),
        ('pool+ranks≤30+judge 20', lambda r: r['pool'] or r['near20'] or (r['rR'] or 999) <= 30),
        ('bridge3 ≤30', lambda r: (r['b3'] or 999) <= 30),
        ('same session top-1 / top-3', lambda r: (r['s1'], r['s3'])),
        ('±1 / ±3 turns of top-3', lambda r: (r['n3_1'], r['n3_3'])),
        ('speaker of top-1', lambda r: r['sp1']),
        ('reader top 3 outside', lambda r: (r['readOut'] or 999) <= 3),
    ]
    print('| ' + ' | '.join(['category'] + [c for c, _ in cols]) + ' |')
    print('|' + '---|' * (len(cols) + 1))
    cats = sorted({r['cat'] for r in rows})
    for cat in cats + ['all']:
        sub = [r for r in rows if cat == 'all' or r['cat'] == cat]
        cells = []
        for name, f in cols:
            if name == 'turns':
                cells.append(str(len(sub)))
                continue
            vals = [f(r) for r in sub]
            if '/' in name:
                cells.append(' / '.join(f'{100 * sum(bool(v[j]) for v in vals) / len(sub):.0f}' for j in range(2)))
            else:
                cells.append(f'{100 * sum(bool(v) for v in vals) / len(sub):.0f}')
        print(f'| {cat} | ' + ' | '.join(cells) + ' |')


if __name__ == '__main__':
    for p in sys.argv[1:]:
        main(p)
        table(p)
