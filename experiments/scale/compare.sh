#!/bin/sh
# The model check of issue 21 (item 3) and the auto check, from the files of
# experiments/scale/run.sh and `vine sim traffic --csv` on the same platform,
# ranks and sizes:
#
#   sh experiments/scale/compare.sh SIMGRID.csv SIM.csv
#
# Prints a Markdown table, one row per (collective, size):
#   - the fastest vine algorithm under SimGrid and by vine sim (the
#     algorithms both have, auto and SMPI's own left out), whether they are
#     the same (top-1), Spearman's rank correlation of the two orders, and
#     what following vine sim costs: the SimGrid time of vine sim's fastest
#     over SimGrid's fastest (1.00 when they agree);
#   - auto's SimGrid time against the fastest of {vine auto, SMPI mpich,
#     SMPI ompi} (a ratio of 1.00 means auto was the fastest; the issue's
#     target is at most 1.05).
# The hierarchical algorithms (hier*, leader*) are left out of both: with
# one rank a host, vine sim's level map drops the level of one-rank nodes,
# so they run on the switches there, while under MPI the node level stays
# (every rank alone) and they run as their flat counterparts.
# top-1 is "yes" when both name the same algorithm, "tie" when vine sim's
# fastest is within 1% of the fastest under SimGrid (SimGrid's times of
# several algorithms are often equal at small sizes), else "no".
# Then a second table, one row per (collective, size): under SimGrid the
# fastest Bine algorithm (bine*) against the fastest classic one (neither
# Bine nor hierarchical: hier*, leader*), the Bine paper's comparison.
# Exit status 0, or 2 for missing files.
set -eu
[ $# = 2 ] && [ -r "$1" ] && [ -r "$2" ] ||
    { echo "usage: sh experiments/scale/compare.sh SIMGRID.csv SIM.csv" >&2; exit 2; }
awk -F, '
FNR == 1 { file++ }
file == 1 {   # selector,collective,algorithm,bytes,ranks,time_us,ran
    k = $2 SUBSEP $4
    if (!(k in seen)) { seen[k] = 1; order[++ncase] = k }
    if ($3 == "smpi") { smpi[k, $1] = $6; next }
    if ($3 == "auto") { autot[k] = $6; autoran[k] = $7; next }
    sg[k, $3] = $6; algos[k] = algos[k] " " $3
    next
}
$5 == "ok" { sim[$2 SUBSEP $4, $3] = $16 * 1e6 }
function rankof(t, names, n, r,    i, j, less) {
    for (i = 1; i <= n; i++) {
        less = 0
        for (j = 1; j <= n; j++)
            if (t[names[j]] < t[names[i]] || (t[names[j]] == t[names[i]] && j < i)) less++
        r[names[i]] = less + 1
    }
}
END {
    print "| collective | size | SimGrid: fastest vine algorithm (us) | vine sim: fastest (us) | top-1 | rank correlation | SimGrid: vine sim pick / fastest | auto (ran) / fastest of auto, mpich, ompi |"
    print "| --- | ---: | --- | --- | --- | ---: | ---: | ---: |"
    agree = 0; cells = 0; good = 0; near = 0
    for (c = 1; c <= ncase; c++) {
        k = order[c]; split(k, kc, SUBSEP)
        n = 0; delete a; delete ts; delete tm; delete rs; delete rm
        m = split(algos[k], cand, " ")
        for (i = 1; i <= m; i++)
            if ((k, cand[i]) in sim && cand[i] !~ /^(hier|leader)/) { a[++n] = cand[i]; ts[cand[i]] = sg[k, cand[i]]; tm[cand[i]] = sim[k, cand[i]] }
        if (n < 2) continue
        rankof(ts, a, n, rs); rankof(tm, a, n, rm)
        d2 = 0
        for (i = 1; i <= n; i++) { d = rs[a[i]] - rm[a[i]]; d2 += d * d; if (rs[a[i]] == 1) bs = a[i]; if (rm[a[i]] == 1) bm = a[i] }
        rho = 1 - 6 * d2 / (n * (n * n - 1))
        top = bs == bm ? "yes" : ts[bm] <= 1.01 * ts[bs] ? "tie" : "no"
        agree += top != "no"; cells++; near += ts[bm] <= 1.05 * ts[bs]
        if (k in autot) {
            best = autot[k]
            if ((k, "mpich") in smpi && smpi[k, "mpich"] < best) best = smpi[k, "mpich"]
            if ((k, "ompi") in smpi && smpi[k, "ompi"] < best) best = smpi[k, "ompi"]
            ratio = sprintf("%.2f (%s)", autot[k] / best, autoran[k]); good += autot[k] / best <= 1.05
            autos++
        } else
            ratio = "- (not run)"
        printf "| %s | %s | %s %.1f | %s %.1f | %s | %.2f | %.2f | %s |\n", kc[1], kc[2], bs, ts[bs], bm, tm[bm], top, rho, ts[bm] / ts[bs], ratio
    }
    printf "\ntop-1 agreement (yes or tie) in %d of %d cells; the pick of vine sim within 5%% of the fastest under SimGrid in %d; auto within 5%% of the fastest in %d of %d\n", agree, cells, near, good, autos
    print ""
    print "| collective | size | fastest Bine (us) | fastest classic (us) | Bine / classic |"
    print "| --- | ---: | --- | --- | ---: |"
    for (c = 1; c <= ncase; c++) {
        k = order[c]; split(k, kc, SUBSEP)
        m = split(algos[k], cand, " "); bb = bc = ""
        for (i = 1; i <= m; i++) {
            x = cand[i]
            if (x ~ /^bine/) { if (bb == "" || sg[k, x] < sg[k, bb]) bb = x }
            else if (x !~ /^(hier|leader)/) { if (bc == "" || sg[k, x] < sg[k, bc]) bc = x }
        }
        if (bb == "" || bc == "") continue
        printf "| %s | %s | %s %.1f | %s %.1f | %.2f |\n", kc[1], kc[2], bb, sg[k, bb], bc, sg[k, bc], sg[k, bb] / sg[k, bc]
    }
}' "$1" "$2"
