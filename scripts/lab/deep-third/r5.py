exec(open(__import__('os').path.join(__import__('os').path.dirname(__file__), 'r4.py')).read().split("for thr, trig")[0])
for thr, trig, esc, prim in [(0.3, 'refined-scale trigger, into refined', lambda q: conf(q, BR, 'refined10'), 'refined'), (0.3, 'first-scale, into first', lambda q: conf(q, BF, 'first10'), 'first'), (0.5, 'refined-scale trigger, into refined', lambda q: conf(q, BR, 'refined10'), 'refined')]:
    print(f'== thr {thr} {trig}')
    for name, cfg in [('old', {'a':0,'d':1}), ('L2', {'L':2})]:
        print(name.ljust(6), end=' '); deeprow(cfg, 0.5, esc, prim, thr=thr)
