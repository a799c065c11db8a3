exec(open(__import__('os').path.join(__import__('os').path.dirname(__file__), 'read.py')).read())
# the ceiling: missing evidence of the refined top 10, where it sits
for f, qs in DATA.items():
    miss = 0; inpool = 0; in50 = 0; inU = 0; pfirst=0
    for q in qs:
        top = {i for i, _ in q['refined10']}
        pool = {p['id'] for p in q['pool']}; r50 = [i for i, _ in q['refined'][10:50]]
        for e in q['evidence']:
            if e in top: continue
            miss += 1; inpool += e in pool; in50 += e in r50; inU += (e in pool or e in r50)
    print(f, 'missing', miss, 'pool', round(inpool/miss,3), 'ranks11-50', round(in50/miss,3), 'union', round(inU/miss,3))
allq = lambda q: True
show('old reader (today)', evalcfg({'a':0,'d':1}, 0.5, allq))
for a, b, c, rho, deep, w in [(1,0,0,0,10,0.5),(1,0,0,0,50,0.5),(1,0.1,0.1,0,50,0.5),(1,0.1,0.1,0.8,50,0.5),(1,0.1,0.1,0.8,10,0.5),(1,0,0,0,50,0.3),(1,0.1,0.1,0.8,50,0.3),(1,0,0,0.8,30,0.5)]:
    show(f'ms a{a} b{b} c{c} rho{rho} deep{deep} w{w}', evalcfg({'a':a,'b':b,'c':c,'rho':rho,'deep':deep}, w, allq))
