#!/bin/sh
# Markdown tables of a run's CSV (run.sh, study.sh: selector,collective,
# algorithm,bytes,ranks,time_us,ran), one per collective: a row per
# algorithm (auto with the algorithm it ran; SMPI's own as "SMPI mpich" and
# "SMPI ompi"), a column per size, times in us, the fastest of a column in
# bold, "-" where the case was not run.
#
#   sh experiments/scale/tables.sh RAW.csv [RAW2.csv ...]
#
# Several files are read as one run (the parts of one configuration).
set -eu
[ $# -ge 1 ] || { echo "usage: sh experiments/scale/tables.sh RAW.csv ..." >&2; exit 2; }
awk -F, '
function label(b) {
    if (b >= 1048576 && b % 1048576 == 0) return b / 1048576 " MiB"
    if (b >= 1024 && b % 1024 == 0) return b / 1024 " KiB"
    return b " B"
}
{
    c = $2; a = $3 == "smpi" ? "SMPI " $1 : $3; b = $4 + 0
    if (!(c in seenc)) { seenc[c] = 1; colls[++nc] = c }
    if (!((c, a) in seena)) { seena[c, a] = 1; algos[c, ++na[c]] = a }
    if (!((c, b) in seens)) { seens[c, b] = 1; sizes[c, ++ns[c]] = b }
    t[c, a, b] = $6 + 0
    if ($3 == "auto") ran[c, b] = $7
    if (!((c, b) in best) || $6 + 0 < best[c, b]) best[c, b] = $6 + 0
}
END {
    for (i = 1; i <= nc; i++) {
        c = colls[i]
        # sizes ascending
        for (x = 1; x <= ns[c]; x++)
            for (y = x + 1; y <= ns[c]; y++)
                if (sizes[c, y] < sizes[c, x]) { z = sizes[c, x]; sizes[c, x] = sizes[c, y]; sizes[c, y] = z }
        printf "\n**%s**, %s ranks (us):\n\n| algorithm |", c, ranks
        for (x = 1; x <= ns[c]; x++) printf " %s |", label(sizes[c, x])
        printf "\n| --- |"
        for (x = 1; x <= ns[c]; x++) printf " ---: |"
        printf "\n"
        for (j = 1; j <= na[c]; j++) {
            a = algos[c, j]
            printf "| %s |", a
            for (x = 1; x <= ns[c]; x++) {
                b = sizes[c, x]
                if (!((c, a, b) in t)) { printf " - |"; continue }
                v = sprintf("%.1f", t[c, a, b])
                if (t[c, a, b] == best[c, b]) v = "**" v "**"
                if (a == "auto") v = v " (" ran[c, b] ")"
                printf " %s |", v
            }
            printf "\n"
        }
    }
}
{ ranks = $5 }' "$@"
