# Sixth pass: the upper bound of recoveredShare a pool allows (a perfect reader), with all 10 places
# and with s reserved slots per query (every query escalated).
#   python3 scripts/lab/deep-sixth/bound.py /tmp/s7r/locomo.json
import json, sys
for path in sys.argv[1:]:
    qs = [q for cv in json.load(open(path)) for q in cv['queries']]
    pools = {
        'shipped (first pass top 10 + temporal/entity/community, cap 50)': lambda q: {p['id'] for p in q['pool']},
        '+ judge 20 nearest': lambda q: {p['id'] for p in q['pool']} | set(q['nearest'][:20]),
        '+ judge 20 + refined ranks 11-30': lambda q: {p['id'] for p in q['pool']} | set(q['nearest'][:20]) | set(q['refined'][:30]),
        '+ judge 20 + ranks 11-30 + bridge3 top 30': lambda q: {p['id'] for p in q['pool']} | set(q['nearest'][:20]) | set(q['refined'][:30]) | set(q['bridge3'][:30]),
    }
    total = sum(sum(1 for e in q['ev'] if e not in q['refined10']) for q in qs)
    print(f'== {path}: {total} missing turns')
    for name, f in pools.items():
        cells = []
        for s in (10, 4, 3, 2):
            got = 0
            for q in qs:
                P = f(q)
                miss = [e for e in q['ev'] if e not in q['refined10'] and e in P]
                got += min(len(miss), s)
            cells.append(f's={s}: {got / total:.3f}')
        print(f'  {name}: ' + ', '.join(cells))
