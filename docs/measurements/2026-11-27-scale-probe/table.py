import csv, sys
ref = {}
def add_ref(path):
    for r in csv.reader(open(path)):
        if len(r) < 7 or r[0] != 'mpich' or r[2] == 'smpi': continue
        k = (r[1], int(r[3])); t = float(r[5])
        if k not in ref or t < ref[k][1]: ref[k] = (r[6], t)
for p in sys.argv[1].split(','): add_ref(p)
runs = []
for spec in sys.argv[2:]:
    name, path = spec.split('=')
    d = {}
    for r in csv.reader(open(path)):
        if len(r) >= 7 and r[2] == 'auto': d[(r[1], int(r[3]))] = (r[6], float(r[5]))
        elif len(r) == 6 and r[1] == 'auto': d[(r[0], int(r[2]))] = (r[5], float(r[4]))
    runs.append((name, d))
keys = sorted(set(k for _, d in runs for k in d), key=lambda k: (k[0], k[1]))
print('| collective | bytes | fastest vine algorithm (us) | ' + ' | '.join(n for n, _ in runs) + ' |')
print('| --- | ---: | --- | ' + ' | '.join('---' for _ in runs) + ' |')
within = [0]*len(runs); cells=[0]*len(runs)
for k in keys:
    b = ref.get(k)
    row = f'| {k[0]} | {k[1]} | ' + (f'{b[0]} {b[1]:.1f}' if b else '-') + ' |'
    for i, (n, d) in enumerate(runs):
        if k in d:
            a, t = d[k]
            if not b:
                row += f' {a} {t:.1f} |'
                continue
            r = t / min(t, b[1])
            cells[i]+=1; within[i]+= r <= 1.05
            row += f' {a} {t:.1f} ({r:.2f}) |'
        else: row += ' - |'
    print(row)
print('within 5% of the fastest vine algorithm (cells with other algorithms timed): ' + ', '.join(f'{n} {w}/{c}' for (n,_),w,c in zip(runs,within,cells)))
