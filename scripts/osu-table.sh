#!/bin/sh
# osu-table.sh DIR: the drop-in against the MPI library under the OSU
# Micro-Benchmarks, from the files of scripts/device-tune.sh's osu stage
# (DIR/COLL-off-R.txt and DIR/COLL-on-R.txt, R = 1, 2: OSU's output without and
# with libvine-mpi.so preloaded).
#
# Prints a Markdown table of the ratio with/without per (size, collective):
# the sum of the rounds' average latencies with the drop-in over the sum
# without it, bold above MARK (default 1.05), and per collective the cells at
# most MARK, the cells above MARK in both rounds, and the geometric mean.
# COL=max reads the maximum over ranks instead of OSU's average (the files of
# runs with OSU's -f; COL=min the minimum).
set -eu
dir=${1:?usage: osu-table.sh DIR}
MARK=${MARK:-1.05}
case ${COL:-avg} in avg) col=2 ;; min) col=3 ;; max) col=4 ;; *)
    echo "osu-table.sh: COL is avg, min or max" >&2
    exit 1
    ;;
esac
[ -d "$dir" ] || { echo "osu-table.sh: no directory $dir" >&2; exit 1; }
colls=$(cd "$dir" && ls ./*-off-1.txt 2>/dev/null | sed 's|^\./||; s|-off-1\.txt$||')
[ -n "$colls" ] || { echo "osu-table.sh: no *-off-1.txt in $dir" >&2; exit 1; }
order="allreduce reduce reduce_scatter bcast allgather alltoall gather scatter"
sorted=""
for c in $order; do
    case " $(echo "$colls" | tr '\n' ' ') " in *" $c "*) sorted="$sorted $c" ;; esac
done
for c in $colls; do
    case " $order " in *" $c "*) ;; *) sorted="$sorted $c" ;; esac
done
for c in $sorted; do
    for f in "$dir/$c-off-1.txt" "$dir/$c-on-1.txt" "$dir/$c-off-2.txt" "$dir/$c-on-2.txt"; do
        [ -f "$f" ] || continue
        # file name: coll, how and round; data lines: size, average latency
        awk -v f="$(basename "$f" .txt)" -v col=$col '/^[0-9]+[ \t]+[0-9.]+/ && NF >= col {
            print f, $1, $col
        }' "$f"
    done
done | awk -v mark="$MARK" -v colls="$sorted" '
{
    n = split($1, p, "-"); r = p[n]; how = p[n - 1]
    c = p[1]; for (i = 2; i <= n - 2; i++) c = c "-" p[i]
    t[c, how, r, $2] = $3; sum[c, how, $2] += $3; cnt[c, how, $2]++
    if (!(($2) in seen)) { seen[$2] = 1; sizes[++ns] = $2 + 0 }
}
function human(b) {
    if (b >= 1048576) return (b / 1048576) "MiB"
    if (b >= 1024) return (b / 1024) "KiB"
    return b "B"
}
END {
    for (i = 1; i <= ns; i++) for (j = i + 1; j <= ns; j++)
        if (sizes[j] < sizes[i]) { x = sizes[i]; sizes[i] = sizes[j]; sizes[j] = x }
    nc = split(colls, cl, " ")
    head = "| size |"; rule = "| ---: |"
    for (k = 1; k <= nc; k++) { head = head " " cl[k] " |"; rule = rule " ---: |" }
    print head; print rule
    for (i = 1; i <= ns; i++) {
        s = sizes[i]; line = "| " human(s) " |"
        for (k = 1; k <= nc; k++) {
            c = cl[k]
            if (cnt[c, "off", s] == 2 && cnt[c, "on", s] == 2 && sum[c, "off", s] > 0) {
                q = sum[c, "on", s] / sum[c, "off", s]
                v = sprintf("%.2f", q)
                if (q > mark) v = "**" v "**"
                line = line " " v " |"
                nq[c]++; lg[c] += log(q)
                if (q <= mark) ok[c]++
                both = 1
                for (r = 1; r <= 2; r++)
                    if (t[c, "off", r, s] <= 0 || t[c, "on", r, s] / t[c, "off", r, s] <= mark) both = 0
                if (both) bad[c] = bad[c] (bad[c] == "" ? "" : ", ") human(s)
            } else line = line " |"
        }
        print line
    }
    print ""
    print "| collective | cells at most " mark " | above " mark " in both rounds | geometric mean |"
    print "| --- | ---: | --- | ---: |"
    for (k = 1; k <= nc; k++) {
        c = cl[k]
        if (!nq[c]) continue
        printf "| %s | %d of %d | %s | %.2f |\n", c, ok[c], nq[c], (bad[c] == "" ? "-" : bad[c]), exp(lg[c] / nq[c])
        allq += nq[c]; allok += ok[c]; alllg += lg[c]
    }
    if (allq) printf "| all | %d of %d | | %.2f |\n", allok, allq, exp(alllg / allq)
}'
