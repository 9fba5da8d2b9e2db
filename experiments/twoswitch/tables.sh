#!/bin/sh
# Markdown tables of a run of run.sh, one per collective and condition, the
# placements side by side (as in docs/performance.md):
#
#   sh experiments/twoswitch/tables.sh [OUT]     (default build-twoswitch/run)
#
# Columns per placement: the completion time of the baseline (the first
# algorithm) and of the second (us, the slowest process), the second's
# improvement (baseline - other) / baseline, the same improvement for the
# paper's measure (the time per process averaged over the processes), and the
# improvement of the completion time of each further algorithm.  The 0 B row
# is left out (no data moves; every algorithm returns at once).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-$here/../../build-twoswitch/run}
files=""
for p in block cyclic; do
    [ -f "$OUT/$p/result.csv" ] && files="$files $OUT/$p/result.csv"
done
[ -n "$files" ] || {
    echo "tables.sh: no result.csv under $OUT/block or $OUT/cyclic" >&2
    exit 1
}
# shellcheck disable=SC2086
awk -F, '
FNR == 1 { n = split(FILENAME, parts, "/"); pl = parts[n - 1]; pls[++npl] = pl; na[pl] = 0; next }
$3 == 0 { next }
{
    key = $1 "," $2
    if (!(key in kseen)) { kseen[key] = 1; keys[++nk] = key }
    if (!((key, $3) in sseen)) { sseen[key, $3] = 1; sizes[key, ++ns[key]] = $3 }
    if (!((pl, $4) in aseen)) { aseen[pl, $4] = 1; algo[pl, ++na[pl]] = $4 }
    t[key, pl, $4, $3] = $5; avg[key, pl, $4, $3] = $6
}
function label(b) {
    if (b >= 1048576) return (b / 1048576) " MiB"
    if (b >= 1024) return (b / 1024) " KiB"
    return b " B"
}
function impr(b, o) { return b > 0 ? sprintf("%+.1f", 100 * (b - o) / b) : "-" }
END {
    for (k = 1; k <= nk; k++) {
        key = keys[k]; split(key, kc, ",")
        printf "\n**%s, %s network** (completion times in us, improvements in %%)\n\n", kc[1], kc[2]
        head = "| size"; rule = "| ---"
        for (i = 1; i <= npl; i++) {
            pl = pls[i]; a1 = algo[pl, 1]; a2 = algo[pl, 2]
            head = head sprintf(" | %s %s | %s %s | impr | impr (avg)", pl, a1, pl, a2)
            rule = rule " | ---: | ---: | ---: | ---:"
            for (j = 3; j <= na[pl]; j++) { head = head " | impr " algo[pl, j]; rule = rule " | ---:" }
        }
        print head " |"; print rule " |"
        for (s = 1; s <= ns[key]; s++) {
            sz = sizes[key, s]; line = "| " label(sz)
            for (i = 1; i <= npl; i++) {
                pl = pls[i]; a1 = algo[pl, 1]; a2 = algo[pl, 2]
                b = t[key, pl, a1, sz]
                line = line sprintf(" | %.1f | %.1f | %s | %s", b, t[key, pl, a2, sz],
                    impr(b, t[key, pl, a2, sz]), impr(avg[key, pl, a1, sz], avg[key, pl, a2, sz]))
                for (j = 3; j <= na[pl]; j++) line = line " | " impr(b, t[key, pl, algo[pl, j], sz])
            }
            print line " |"
        }
    }
}' $files
