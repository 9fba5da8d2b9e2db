#!/bin/sh
# Prints the tables of docs/performance.md from the result files that
# scripts/bench-device.sh wrote to DIR (with `vine table`, docs/bench.md):
#
#   sh scripts/device-tables.sh DIR [VINE]     # VINE: default build/bin/vine
#
# Issue 7: every collective, vine's best algorithm against the MPI library;
# issue 4: each Bine algorithm against its classic counterpart on NP ranks
# (both runs, as ranges), on the non-powers of two, with the ranks placed
# two ways, and the segmented allreduce.  A table whose files are missing is
# left out with a note.
set -u
dir=${1:?usage: sh scripts/device-tables.sh DIR [VINE]}
vine=${2:-$(dirname "$0")/../build/bin/vine}
PAIRS=bcast:bine/binomial,bcast:bine_large/scatter_allgather_rd
PAIRS=$PAIRS,reduce:bine/binomial,reduce:bine_large/rabenseifner
PAIRS=$PAIRS,allreduce:bine/recursive_doubling,allreduce:bine_large/rabenseifner
PAIRS=$PAIRS,reduce_scatter_block:bine_permute/recursive_halving
PAIRS=$PAIRS,reduce_scatter_block:bine_send/recursive_halving
PAIRS=$PAIRS,reduce_scatter_block:bine_block/recursive_halving
PAIRS=$PAIRS,allgather:bine_permute/recursive_doubling
PAIRS=$PAIRS,allgather:bine_send/recursive_doubling
PAIRS=$PAIRS,allgather:bine_block/recursive_doubling
PAIRS=$PAIRS,gather:bine/binomial,scatter:bine/binomial,alltoall:bine/bruck

# table TITLE SUBCOMMAND FILE-PATTERN [OPTION...]: one table from the files
# that match, or a note when none does.
table() {
    title=$1 sub=$2 pattern=$3
    shift 3
    found=0
    for f in "$dir"/$pattern; do
        [ -e "$f" ] || continue
        set -- "$@" --in "$f"
        found=1
    done
    echo "### $title"
    echo
    if [ "$found" = 1 ]; then
        "$vine" table "$sub" "$@" || echo "(vine table failed)"
    else
        echo "(no $pattern in $dir)"
    fi
    echo
}

table "Every collective against the MPI library" best 'coll-p*.json'
table "Bine against its counterpart" pairs 'bine-p*-[ab]-*.json' --pair "$PAIRS" --mark 1.10
table "Bine on other rank counts" pairs 'bine-p*-odd-*.json' --pair "$PAIRS" --mark 1.10
table "The 16 MiB cases, ranks core by core" pairs 'placement-core.json' \
    --pair reduce:bine/binomial,allreduce:bine_large/rabenseifner
table "The 16 MiB cases, ranks interleaved" pairs 'placement-interleaved.json' \
    --pair reduce:bine/binomial,allreduce:bine_large/rabenseifner
for f in "$dir"/segment-*.json; do
    [ -e "$f" ] || continue
    seg=${f##*/segment-}
    table "allreduce with VINE_SEGMENT_SIZE=${seg%.json}" best "segment-${seg}"
done
