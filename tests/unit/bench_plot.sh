#!/bin/sh
# Tests of `vine plot` (tools/vine_plot.c) on the synthetic result files
# tests/data/bench/results_p2.json (2 ranks) and results_p4.csv (4 ranks);
# tests/unit/bench_plot.cmake registers one ctest per case:
#   sh bench_plot.sh CASE VINE DATADIR WORKDIR
# The heatmap's cells are worked out by hand from the files (auto is left out
# by default):
#   2 ranks, 8B:   mpi 10, ring 20, recursive_doubling 8  -> recursive_doubling, mpi, 1.25
#   2 ranks, 1KiB: mpi 12, ring 15, recursive_doubling 24 -> mpi, ring, 1.25
#   4 ranks, 8B:   mpi 16, ring 40, recursive_doubling 20 -> mpi, recursive_doubling, 1.25
#   4 ranks, 1KiB: mpi 30, ring 15 (the others n/a, error) -> ring, mpi, 2.00
# and the letters follow the winners' names: A mpi, B recursive_doubling, C ring.
# The tuning case draws ../tuning/table-small.json (beside DATADIR), a tuning
# file made by hand.  Its allreduce rules give the rows 4 (ops commutative),
# 8 and 8 (ops commutative), the columns the powers of two from 8B (the
# smallest min) to 4KiB (the largest max), and a cell the range that auto's
# lookup finds: on 8 ranks, class any, 8B to 32B lie below the first min and
# get the first range (reduce_bcast, 9.0 / 7.5 = 1.20); on 8 ranks,
# commutative, 512B is recursive_doubling (6 / 5 = 1.20) and 1KiB ring with
# segments of 1KiB (275 / 250 = 1.10); on 4 ranks mpi (10 / 4 = 2.50).  The
# letters follow the names: A mpi, B recursive_doubling, C reduce_bcast,
# D ring seg 1KiB.
# Prints what it checks and exits non-zero at the first failure.
set -u
case_name=$1
vine=$2
data=$3
work=$4
. "$(dirname "$0")/../testlib.sh"
fresh_workdir "$work"

# is_svg FILE: an SVG document that gnuplot finished.
is_svg() {
    [ -s "$1" ] || fail "$1 missing or empty"
    grep -q '<svg' "$1" || fail "$1 is not SVG"
    grep -q '</svg>' "$1" || fail "$1 is not a finished SVG"
}

# row RANKS SIZE LETTER BEST V1 SECOND V2 RATIO: the heatmap table has that line.
row() {
    grep -Eq "^ *$1 +$2 +$3 +$4 +$5 +$6 +$7 +$8\$" out.txt ||
        fail "no table line: $*"
}

# line TEXT: the heatmap table has that line, blanks squeezed (a row label may hold blanks).
line() {
    sed 's/^ *//; s/  */ /g' out.txt | grep -Fxq -- "$1" || fail "no table line: $1"
}

P2=$data/results_p2.json
P4=$data/results_p4.csv

case $case_name in
time)
    run "$vine" plot time --in "$P2" --out time.svg --script time.gp
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "plot time exited $rc"
    is_svg time.svg
    grep -q 'plot: time.svg' out.txt || fail "no 'plot:' line"
    for a in mpi auto ring recursive_doubling; do
        grep -q ">$a<" time.svg || fail "no key entry $a in time.svg"
    done
    grep -q 'allreduce, 2 ranks, int sum' time.svg || fail "no panel title"
    # barrier has no size and is left out
    grep -q 'barrier' time.gp && fail "barrier plotted"
    # the data: recursive_doubling's medians at 8 and 1024 bytes
    grep -q '^8 8$' time.gp || fail "no point (8 B, 8 us)"
    grep -q '^1024 24$' time.gp || fail "no point (1 KiB, 24 us)"
    # the CSV file, another collective, a bandwidth
    run "$vine" plot time --in "$P4" --coll allgather --metric busbw --out bw.svg --script bw.gp
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "plot time (csv, busbw) exited $rc"
    is_svg bw.svg
    grep -q 'allgather, 4 ranks' bw.svg || fail "no allgather panel"
    grep -q 'busbw' bw.svg || fail "no busbw axis label"
    grep -q '^8 0.00266667$' bw.gp || fail "no point (8 B, ring's busbw)"
    ;;
heatmap)
    run "$vine" plot heatmap --in "$P2" --in "$P4" --coll allreduce --out heat.svg
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "plot heatmap exited $rc"
    is_svg heat.svg
    row 2 8B B recursive_doubling 8.000 mpi 10.000 1.25
    row 2 1KiB A mpi 12.000 ring 15.000 1.25
    row 4 8B A mpi 16.000 recursive_doubling 20.000 1.25
    row 4 1KiB C ring 15.000 mpi 30.000 2.00
    [ "$(grep -c '^ *[24] ' out.txt)" = 4 ] || fail "not exactly 4 cells"
    grep -q 'auto' out.txt && fail "auto should be left out by default"
    for k in 'A  mpi' 'B  recursive_doubling' 'C  ring'; do
        grep -q "$k" heat.svg || fail "no key entry '$k' in heat.svg"
    done
    # Another choice of rows: without auto and mpi; and the minimum instead of the median.
    run "$vine" plot heatmap --in "$P4" --in "$P2" --coll allreduce --exclude auto,mpi \
        --out heat2.svg
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "plot heatmap --exclude exited $rc"
    is_svg heat2.svg
    row 2 8B A recursive_doubling 8.000 ring 20.000 2.50
    row 4 1KiB B ring 15.000 - - -
    run "$vine" plot heatmap --in "$P2" --exclude mpi --metric min --out heat3.svg
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "plot heatmap --metric min exited $rc"
    row 2 8B A auto 4.500 recursive_doubling 7.500 1.67
    ;;
tuning)
    cp "$data/../tuning/table-small.json" small.json || fail "cannot copy table-small.json"
    run "$vine" plot heatmap --in small.json --out tune.svg --script tune.gp
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "plot heatmap of a tuning file exited $rc"
    is_svg tune.svg
    line '# allreduce: per (ranks, size) the algorithm of the tuning file small.json and the runner-up, with the medians of the range that serves the size; ratio = runner-up / best'
    line '4 (ops commutative) 8B A mpi 4.000 ring 10.000 2.50'
    line '4 (ops commutative) 4KiB A mpi 4.000 ring 10.000 2.50'
    line '8 8B C reduce_bcast 7.500 recursive_doubling 9.000 1.20'
    line '8 4KiB C reduce_bcast 7.500 recursive_doubling 9.000 1.20'
    line '8 (ops commutative) 512B B recursive_doubling 5.000 mpi 6.000 1.20'
    line '8 (ops commutative) 1KiB D ring seg 1KiB 250.000 bine 275.000 1.10'
    line 'plot: tune.svg'
    # 3 rows of 10 columns (8B to 4KiB), every cell served.
    [ "$(grep -c 'B [A-D] ' out.txt)" = 30 ] || fail "not 30 cells"
    for k in 'A  mpi' 'B  recursive_doubling' 'C  reduce_bcast' 'D  ring seg 1KiB'; do
        grep -q "$k" tune.svg || fail "no key entry '$k' in tune.svg"
    done
    grep -q "'8 (ops commutative)' 2" tune.gp || fail "no row label in tune.gp"
    # Another collective: bcast has no runner-up ("-"); barrier is one cell of 0 bytes.
    run "$vine" plot heatmap --in small.json --coll bcast --out bcast.svg
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "plot heatmap --coll bcast exited $rc"
    line '8 1B A binomial 3.000 - - -'
    line '8 4KiB B mpi - - - -'
    run "$vine" plot heatmap --in small.json --coll barrier --out barrier.svg
    [ "$rc" = 0 ] || fail "plot heatmap --coll barrier exited $rc"
    line '8 0B A mpi 2.000 dissemination 2.500 1.25'
    # Broken files and bad options: the message, the exit status, no plot.
    printf '{"schema": "vine-tuning", "version": 1, "rules": [' >broken.json
    expect 2 'vine plot heatmap: broken.json:1:' "$vine" plot heatmap --in broken.json --out b.svg
    cp "$data/../tuning/bad-overlap.json" overlap.json || fail "cannot copy bad-overlap.json"
    expect 2 'vine plot heatmap: overlap.json:11: ' "$vine" plot heatmap --in overlap.json \
        --out b.svg
    expect 2 'do not apply to a tuning file' "$vine" plot heatmap --in small.json --metric min \
        --out b.svg
    expect 2 'drawn alone' "$vine" plot heatmap --in "$P2" --in small.json --out b.svg
    expect 2 'not a collective' "$vine" plot heatmap --in small.json --coll scater --out b.svg
    expect 1 'small.json has no rules for scatter' "$vine" plot heatmap --in small.json \
        --coll scatter --out b.svg
    expect 2 "'vine plot heatmap --in small.json' draws it" "$vine" plot time --in small.json \
        --out b.svg
    [ -e b.svg ] && fail "a failed plot left b.svg"
    ;;
nognuplot)
    # With gnuplot out of PATH, both plots fail clearly with exit status 1.
    run env PATH=/nonexistent "$vine" plot time --in "$P2" --out t.svg
    cat out.txt err.txt
    [ "$rc" = 1 ] || fail "time: exit status $rc, want 1"
    grep -q 'needs gnuplot' err.txt || fail "time: no message about gnuplot"
    run env PATH=/nonexistent "$vine" plot heatmap --in "$P2" --out h.svg
    cat out.txt err.txt
    [ "$rc" = 1 ] || fail "heatmap: exit status $rc, want 1"
    grep -q 'needs gnuplot' err.txt || fail "heatmap: no message about gnuplot"
    ;;
bad)
    expect 2 'choose one with --coll' "$vine" plot heatmap --in "$P2" --in "$P4" --out h.svg
    expect 2 'one file per rank count' "$vine" plot heatmap --in "$P2" --in "$P2" \
        --coll allreduce --out h.svg
    expect 2 'required' "$vine" plot time --in "$P2"
    expect 2 '--metric' "$vine" plot heatmap --in "$P2" --metric busbw --out h.svg
    expect 2 'unknown argument' "$vine" plot time --in "$P2" --out t.svg --bogus
    expect 2 'unknown plot' "$vine" plot pie --in "$P2"
    expect 2 'cannot open' "$vine" plot time --in no-such-file.json --out t.svg
    printf '{"format": "vine-bench-results", "rows": [' >broken.json
    expect 2 'broken.json:1:' "$vine" plot time --in broken.json --out t.svg
    expect 1 'no measured scatter' "$vine" plot time --in "$P2" --coll scatter --out t.svg
    expect 1 'no measured' "$vine" plot heatmap --in "$P2" --coll scatter --out h.svg
    [ -e t.svg ] && fail "a failed plot left t.svg"
    ;;
*)
    fail "unknown case $case_name"
    ;;
esac
echo "bench_plot $case_name: passed"
