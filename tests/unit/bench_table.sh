#!/bin/sh
# Tests of `vine table` (tools/vine_table.c) on the synthetic result files of
# tests/data/bench: table_run1.json and table_run2.json (two runs of the same
# command on 4 ranks), results_p2.json (2 ranks) and results_p4.csv (4 ranks);
# tests/unit/bench_table.cmake registers one ctest per case:
#   sh bench_table.sh CASE VINE DATADIR WORKDIR
# The medians (us; "n/a" and "error" rows are not measured):
#                      run1                          run2
#   allreduce 8B       mpi 10 auto 9 ring 20         mpi 12 auto 12 ring 22
#                      recursive_doubling 9 bine 8   recursive_doubling 9 bine 9
#   allreduce 64KiB    mpi 100 auto 80 ring 80       mpi 100 auto 95 ring 110
#                      recursive_doubling 120 bine 88  recursive_doubling n/a bine 85
#   bcast 8B           mpi 5 auto 5 binomial 4 bine 4 (both runs)
#   bcast 64KiB        mpi 50 auto 40 binomial 60    mpi 52 auto 52 binomial 65
#                      bine error                    bine error
#   barrier            mpi 4 auto 3 dissemination 3  mpi 4 auto 4 dissemination 5
# The cells, worked out by hand (ratios to mpi; "a, b" are run1's and run2's):
#   best, run1 alone: allreduce 8B: auto 0.90; ring 2.00, rd 0.90, bine 0.80 -> bine.
#     64KiB: auto 0.80; ring 0.80, bine 0.88, rd 1.20 -> ring.  bcast 8B: binomial
#     and bine tie at 0.80 -> bine (by name).  bcast 64KiB: binomial 1.20, the only
#     one measured (the base is faster).  barrier: auto 0.75, dissemination 0.75.
#   best, both runs: allreduce 8B: mpi 10.0-12.0, auto 0.90, 1.00; geometric
#     means: bine sqrt(0.80 * 0.75) = 0.77 < rd sqrt(0.90 * 0.75) = 0.82 < ring
#     -> bine 0.75-0.80.  64KiB: mpi 100 (both), auto 0.80, 0.95; bine 0.88,
#     0.85 (0.86) < ring 0.80, 1.10 (0.94) < rd 1.20 (run1 only) -> bine
#     0.85-0.88 (run1 alone chose ring).  bcast 64KiB: mpi 50.0-52.0, auto 0.80,
#     1.00, binomial 1.20, 1.25.  barrier: auto 0.75, 1.00; dissemination 0.75,
#     1.25.  --mark 1.10 bolds the last two ratios only.
#   --base ring: bcast and barrier have no ring rows and are left out.
#     allreduce 8B: ring 20.0-22.0, auto 9/20, 12/22 = 0.45-0.55; bine 8/20,
#     9/22 = 0.40-0.41.  64KiB: ring 80.0-110; auto 80/80, 95/110 = 0.86-1.00;
#     bine 88/80, 85/110 = 0.77-1.10 (geometric mean 0.92) beats mpi 1.25, 0.91.
#   --exclude auto,bine,dissemination: allreduce 8B -> rd 0.75-0.90; 64KiB ->
#     ring 0.80-1.10; barrier has no candidate left: "-".
#   run1 with results_p2.json: a ranks column; 2 ranks first: allreduce 8B mpi
#     10.0, auto 0.50, rd 0.80; 1KiB mpi 12.0, auto 2.50, ring 1.25; barrier has
#     mpi only.  --metric min on results_p2.json: 8B mpi 9.50, auto 4.5/9.5 =
#     0.47, rd 7.5/9.5 = 0.79.
#   pairs, both runs: allreduce bine/mpi: 8B 0.80, 0.75; 64KiB 0.88, 0.85.
#     allreduce ring/recursive_doubling: 8B 20/9, 22/9 = 2.22-2.44 (bold with
#     --mark 1.10); 64KiB 80/120 = 0.67 (run2's rd is n/a).  bcast bine/binomial:
#     8B 1.00 twice -> "1.00"; 64KiB "-" (bine failed).
#   pairs, run1, run2 and results_p4.csv: allreduce ring/mpi: 8B 2.00, 1.83,
#     2.50 (p4: 40/16); 1KiB 0.50 (p4 only: 15/30); 64KiB 0.80, 1.10.
#   pairs, results_p2.json and results_p4.csv: sizes 8B (both) and 1KiB
#     (allreduce only); 2 ranks: allreduce ring/mpi 20/10, 15/12 = 2.00, 1.25,
#     allgather "-" (none); 4 ranks: 40/16 = 2.50, 15/30 = 0.50; allgather 9/6
#     = 1.50 at 8B, "-" at 1KiB.
# The tuning case reads ../tuning/table-small.json (beside DATADIR), a tuning
# file made by hand; its tables, worked out from the file: bcast before
# allreduce before barrier (the order of the collectives in vine), the class
# "any" before "commutative", rank counts ascending; a margin is
# runner_up_us / median_us: 9.0 / 7.5 = 1.20, 10 / 4 = 2.50, 6 / 5 = 1.20,
# 275 / 250 = 1.10, 2.5 / 2 = 1.25; "-" where the file gives no runner-up.
# Prints what it checks and exits non-zero at the first failure.
set -u
case_name=$1
vine=$2
data=$3
work=$4
. "$(dirname "$0")/../testlib.sh"
unit_dir=$(cd "$(dirname "$0")" && pwd)
fresh_workdir "$work"

# ok command...: runs it, shows its output, and wants exit status 0.
ok() {
    run "$@"
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "exit status $rc, want 0: $*"
}

# has LINE...: out.txt has each LINE, whole.
has() {
    for l in "$@"; do
        grep -Fxq -- "$l" out.txt || fail "no line: $l"
    done
}

# rows N: the table in out.txt has N rows (besides its header and rule).
rows() {
    [ "$(grep -c '^| ' out.txt)" = $(($1 + 2)) ] || fail "not $1 table rows"
}

R1=$data/table_run1.json
R2=$data/table_run2.json
P2=$data/results_p2.json
P4=$data/results_p4.csv

case $case_name in
best)
    ok "$vine" table best --in "$R1"
    has '4 ranks; median; ratio = algorithm / mpi within one file' \
        '| collective | size | mpi (us) | auto | best | ratio |' \
        '| --- | --- | ---: | ---: | --- | ---: |' \
        '| allreduce | 8B | 10.0 | 0.90 | bine | 0.80 |' \
        '| allreduce | 64KiB | 100 | 0.80 | ring | 0.80 |' \
        '| bcast | 8B | 5.00 | 1.00 | bine | 0.80 |' \
        '| bcast | 64KiB | 50.0 | 0.80 | binomial | 1.20 |' \
        '| barrier | - | 4.00 | 0.75 | dissemination | 0.75 |'
    rows 5
    [ "$(sed -n 2p out.txt)" = "" ] || fail "no blank line under the caption"
    ok "$vine" table best --in "$R1" --in "$R2" --mark 1.10
    has '4 ranks; median; ratio = algorithm / mpi within one file, a range: min-max over the files that hold both (2 read); bold: above 1.1' \
        '| allreduce | 8B | 10.0-12.0 | 0.90-1.00 | bine | 0.75-0.80 |' \
        '| allreduce | 64KiB | 100 | 0.80-0.95 | bine | 0.85-0.88 |' \
        '| bcast | 8B | 5.00 | 1.00 | bine | 0.80 |' \
        '| bcast | 64KiB | 50.0-52.0 | 0.80-1.00 | binomial | **1.20-1.25** |' \
        '| barrier | - | 4.00 | 0.75-1.00 | dissemination | **0.75-1.25** |'
    rows 5
    ok "$vine" table best --in "$R1" --in "$R2" --base ring
    has '| collective | size | ring (us) | auto | best | ratio |' \
        '| allreduce | 8B | 20.0-22.0 | 0.45-0.55 | bine | 0.40-0.41 |' \
        '| allreduce | 64KiB | 80.0-110 | 0.86-1.00 | bine | 0.77-1.10 |'
    rows 2
    ok "$vine" table best --in "$R1" --in "$R2" --exclude auto,bine,dissemination
    has '| allreduce | 8B | 10.0-12.0 | 0.90-1.00 | recursive_doubling | 0.75-0.90 |' \
        '| allreduce | 64KiB | 100 | 0.80-0.95 | ring | 0.80-1.10 |' \
        '| bcast | 8B | 5.00 | 1.00 | binomial | 0.80 |' \
        '| barrier | - | 4.00 | 0.75-1.00 | - | - |'
    ok "$vine" table best --in "$R1" --in "$P2"
    has 'median; ratio = algorithm / mpi within one file, a range: min-max over the files that hold both (2 read)' \
        '| ranks | collective | size | mpi (us) | auto | best | ratio |' \
        '| ---: | --- | --- | ---: | ---: | --- | ---: |' \
        '| 2 | allreduce | 8B | 10.0 | 0.50 | recursive_doubling | 0.80 |' \
        '| 2 | allreduce | 1KiB | 12.0 | 2.50 | ring | 1.25 |' \
        '| 2 | barrier | - | 3.00 | - | - | - |' \
        '| 4 | allreduce | 8B | 10.0 | 0.90 | bine | 0.80 |' \
        '| 4 | barrier | - | 4.00 | 0.75 | dissemination | 0.75 |'
    rows 8
    [ "$(grep '^| [24] ' out.txt | head -1)" = '| 2 | allreduce | 8B | 10.0 | 0.50 | recursive_doubling | 0.80 |' ] ||
        fail "2 ranks do not come first"
    ok "$vine" table best --in "$P2" --metric min
    has '2 ranks; min; ratio = algorithm / mpi within one file' \
        '| allreduce | 8B | 9.50 | 0.47 | recursive_doubling | 0.79 |'
    ;;
pairs)
    ok "$vine" table pairs --in "$R1" --in "$R2" --pair allreduce:bine/mpi,allreduce:ring/recursive_doubling \
        --pair bcast:bine/binomial --mark 1.10
    has '4 ranks; median; ratio = algorithm / reference within one file, a range: min-max over the files that hold both (2 read); bold: above 1.1' \
        '| collective | algorithm | reference | 8B | 64KiB |' \
        '| --- | --- | --- | ---: | ---: |' \
        '| allreduce | bine | mpi | 0.75-0.80 | 0.85-0.88 |' \
        '| allreduce | ring | recursive_doubling | **2.22-2.44** | 0.67 |' \
        '| bcast | bine | binomial | 1.00 | - |'
    rows 3
    ok "$vine" table pairs --in "$R1" --in "$R2" --in "$P4" --pair allreduce:ring/mpi
    has '| collective | algorithm | reference | 8B | 1KiB | 64KiB |' \
        '| allreduce | ring | mpi | 1.83-2.50 | 0.50 | 0.80-1.10 |'
    rows 1
    ok "$vine" table pairs --in "$P2" --in "$P4" --pair allreduce:ring/mpi --pair allgather:ring/mpi
    has 'median; ratio = algorithm / reference within one file, a range: min-max over the files that hold both (2 read)' \
        '| ranks | collective | algorithm | reference | 8B | 1KiB |' \
        '| ---: | --- | --- | --- | ---: | ---: |' \
        '| 2 | allreduce | ring | mpi | 2.00 | 1.25 |' \
        '| 2 | allgather | ring | mpi | - | - |' \
        '| 4 | allreduce | ring | mpi | 2.50 | 0.50 |' \
        '| 4 | allgather | ring | mpi | 1.50 | - |'
    rows 4
    ;;
scale)
    # experiments/scale/to_bench.sh (issue 21): a SimGrid run's CSV in
    # vine-bench's format, read by vine table.  Worked out by hand, 4 ranks:
    # allreduce 8 B: auto 10 us, ratio to the faster SMPI selector (ompi, 8)
    # 1.25, algbw 8 / 10 / 1e3 = 0.0008 GB/s, busbw x 2 (4 - 1) / 4 = 0.0012;
    # allgather 1 KiB blocks: bruck 40 us, ratio 40 / 50 = 0.8, algbw
    # 4 x 1024 / 40 / 1e3 = 0.1024, busbw x 3 / 4 = 0.0768.
    cat >raw.csv <<'EOT'
mpich,allreduce,auto,8,4,10.000,recursive_doubling
mpich,allreduce,rabenseifner,8,4,20.000,rabenseifner
mpich,allreduce,smpi,8,4,12.500,smpi
mpich,allgather,bruck,1024,4,40.000,bruck
mpich,allgather,smpi,1024,4,50.000,smpi
ompi,allreduce,smpi,8,4,8.000,smpi
ompi,allgather,smpi,1024,4,80.000,smpi
EOT
    printf 'h3\nh5\nh8\nh9\nh10\n' >hosts.txt
    tb=$unit_dir/../../experiments/scale/to_bench.sh
    run sh "$tb" raw.csv hosts.txt "SimGrid 3.32 SMPI"
    [ "$rc" = 0 ] || fail "to_bench.sh: exit $rc: $(cat err.txt)"
    cp out.txt bench.csv
    grep -Fxq '# mpi_library: SimGrid 3.32 SMPI' bench.csv || fail "no description"
    grep -Fxq '# host 3: h9' bench.csv && ! grep -q '# host 4' bench.csv || fail "hosts"
    grep -Fxq 'allreduce,auto,8B,8,2,ok,,,1,0,10.000,10.000,10.000,10.000,10.000,1.25,0.0008,0.0012' \
        bench.csv || fail "the auto row"
    grep -Fxq 'allgather,bruck,1024B,1024,256,ok,,,1,0,40.000,40.000,40.000,40.000,40.000,0.8,0.1024,0.0768' \
        bench.csv || fail "the bruck row"
    grep -q '^allgather,smpi_ompi,1024B,' bench.csv || fail "no smpi_ompi row"
    ok "$vine" table pairs --in bench.csv --pair allreduce:auto/smpi_ompi,allgather:bruck/smpi_mpich
    has '| allreduce | auto | smpi_ompi | 1.25 | - |' '| allgather | bruck | smpi_mpich | - | 0.80 |'
    ok "$vine" table best --in bench.csv --base smpi_ompi
    has '| allreduce | 8B | 8.00 | 1.25 | smpi_mpich | 1.56 |' '| allgather | 1KiB | 80.0 | - | bruck | 0.50 |'
    # A run file with no rows, or hosts too few, fails clearly.
    : >empty.csv
    run sh "$tb" empty.csv hosts.txt x
    [ "$rc" = 1 ] && grep -q 'no rows' err.txt || fail "empty: exit $rc"
    printf 'h1\n' >one.txt
    run sh "$tb" raw.csv one.txt x
    [ "$rc" = 1 ] && grep -q 'fewer than 4 hosts' err.txt || fail "few hosts: exit $rc"
    ;;
osu)
    # scripts/osu-table.sh (issue 17): OSU's output without and with the
    # drop-in, two rounds.  Worked out by hand: allreduce 8 B (10 + 14) /
    # (10 + 10) = 1.20, above 1.05 in round 2 only; 16 B (8 + 8) / (10 + 10)
    # = 0.80; bcast 8 B (12 + 12) / (10 + 10) = 1.20, above in both rounds.
    # Geometric means: allreduce sqrt(1.2 x 0.8) = 0.98; all (1.2 x 0.8 x
    # 1.2)^(1/3) = 1.05.  COL=max reads the fourth column: allreduce 8 B
    # (20 + 20) / (40 + 40) = 0.50.
    mkdir osu
    for r in 1 2; do
        printf '# OSU MPI Allreduce Latency Test\n# Size  Avg Latency(us)\n8 10.00 5.0 40.0 100\n16 10.00 5.0 40.0 100\n' \
            >osu/allreduce-off-$r.txt
        printf 'bcast noise line\n8 10.00 1.0 2.0 100\n' >osu/bcast-off-$r.txt
        printf '8 12.00 1.0 2.0 100\n' >osu/bcast-on-$r.txt
    done
    printf '$ mpirun ...\n8 10.00 4.0 20.0 100\n16 8.00 4.0 20.0 100\n' >osu/allreduce-on-1.txt
    printf '8 14.00 4.0 20.0 100\n16 8.00 4.0 20.0 100\n' >osu/allreduce-on-2.txt
    ot=$unit_dir/../../scripts/osu-table.sh
    ok sh "$ot" osu
    has '| size | allreduce | bcast |' '| 8B | **1.20** | **1.20** |' '| 16B | 0.80 | |' \
        '| allreduce | 1 of 2 | - | 0.98 |' '| bcast | 0 of 1 | 8B | 1.20 |' '| all | 1 of 3 | | 1.05 |'
    COL=max ok sh "$ot" osu
    has '| 8B | 0.50 | 1.00 |'
    mkdir empty
    run sh "$ot" empty
    [ "$rc" = 1 ] && grep -q 'no \*-off-1.txt' err.txt || fail "no files: exit $rc"
    run sh "$ot" missing
    [ "$rc" = 1 ] && grep -q 'no directory missing' err.txt || fail "no directory: exit $rc"
    COL=mean run sh "$ot" osu
    [ "$rc" = 1 ] && grep -q 'COL is avg, min or max' err.txt || fail "bad COL: exit $rc"
    ;;
bad)
    expect 2 'unknown argument' "$vine" table best --in "$R1" --bogus
    expect 2 'unknown argument' "$vine" table pairs --in "$R1" --pair bcast:bine/mpi --exclude x
    expect 2 'unknown table' "$vine" table worst --in "$R1"
    expect 2 'required' "$vine" table best
    expect 2 'required' "$vine" table pairs --in "$R1"
    for p in allreduce allreduce:bine allreduce-bine/mpi :bine/mpi allreduce:/mpi allreduce:bine/ \
        allreduce:bine/mpi/ring allreduce:bine/mpi, ''; do
        expect 2 'not COLL:ALGO/REF' "$vine" table pairs --in "$R1" --pair "$p"
    done
    expect 2 '--metric' "$vine" table best --in "$R1" --metric busbw
    expect 2 '--mark' "$vine" table best --in "$R1" --mark 0
    expect 2 '--mark' "$vine" table pairs --in "$R1" --pair bcast:bine/mpi --mark 1.1x
    expect 2 'needs a value' "$vine" table best --in "$R1" --base
    expect 2 'no-such-file.json' "$vine" table best --in "$R1" --in no-such-file.json
    printf '{"format": "vine-bench-results", "rows": [' >broken.json
    expect 2 'broken.json:1:' "$vine" table pairs --in broken.json --pair bcast:bine/mpi
    expect 1 'no measured bogus rows' "$vine" table best --in "$R1" --base bogus
    expect 1 'no file holds' "$vine" table pairs --in "$R1" --pair scatter:linear/mpi
    expect 1 'no file holds' "$vine" table pairs --in "$R1" --pair bcast:ring/mpi
    [ -s out.txt ] && fail "a table printed when there is nothing to tabulate"
    # --help prints the usage on stdout and exits 0; the tool lists the command.
    ok "$vine" table best --help
    grep -q 'usage: vine table best' out.txt || fail "no usage on stdout"
    ok "$vine" --help
    grep -q 'table best|pairs' out.txt || fail "vine --help does not list table"
    ;;
tuning)
    # A copy in the work directory, so that the caption names it without a path.
    cp "$data/../tuning/table-small.json" small.json || fail "cannot copy table-small.json"
    ok "$vine" table tuning --in small.json
    [ "$(sed -n 1p out.txt)" = 'small.json; MPICH Version: 4.1.2; 2026-12-01T09:30:00Z; 8 ranks, 4 per node, 4 cores per node; hosts a1, a2; vine 0.1.0' ] ||
        fail "not the caption"
    # The whole output after the caption, line by line.
    cat >want.txt <<'EOT'

bcast

| ranks | size | algorithm | median (us) | runner-up | median (us) | margin |
| ---: | --- | --- | ---: | --- | ---: | ---: |
| 8 | 1B - 2KiB | binomial | 3.00 | - | - | - |
| 8 | 4KiB | mpi | - | - | - | - |

allreduce

| ranks | size | algorithm | median (us) | runner-up | median (us) | margin |
| ---: | --- | --- | ---: | --- | ---: | ---: |
| 8 | 64B - 4KiB | reduce_bcast | 7.50 | recursive_doubling | 9.00 | 1.20x |

allreduce (ops commutative)

| ranks | size | algorithm | median (us) | runner-up | median (us) | margin |
| ---: | --- | --- | ---: | --- | ---: | ---: |
| 4 | 8B - 4KiB | mpi | 4.00 | ring | 10.0 | 2.50x |
| 8 | 8B - 512B | recursive_doubling | 5.00 | mpi | 6.00 | 1.20x |
| 8 | 1KiB - 4KiB | ring, seg 1KiB | 250 | bine | 275 | 1.10x |

barrier

| ranks | size | algorithm | median (us) | runner-up | median (us) | margin |
| ---: | --- | --- | ---: | --- | ---: | ---: |
| 8 | - | mpi | 2.00 | dissemination | 2.50 | 1.25x |
EOT
    sed 1d out.txt | diff want.txt - || fail "not the tables worked out by hand"
    # --coll keeps the chosen collectives, in vine's order.
    ok "$vine" table tuning --in small.json --coll barrier,bcast
    has 'bcast' '| 8 | 4KiB | mpi | - | - | - | - |' 'barrier'
    [ "$(grep -c '^| [0-9]' out.txt)" = 3 ] || fail "not 3 rows in the tables"
    grep -q allreduce out.txt && fail "--coll barrier,bcast printed allreduce"
    # Broken files: the loader's message with the file and line, exit status 2.
    printf '{"schema": "vine-tuning", "version": 1, "rules": [' >broken.json
    expect 2 'vine table tuning: broken.json:1:' "$vine" table tuning --in broken.json
    cp "$data/../tuning/bad-overlap.json" overlap.json || fail "cannot copy bad-overlap.json"
    expect 2 'vine table tuning: overlap.json:11: ' "$vine" table tuning --in overlap.json
    [ -s out.txt ] && fail "a table printed for a broken file"
    expect 2 'cannot open' "$vine" table tuning --in no-such-file.json
    # Usage errors, nothing to tabulate, and a tuning file given to another table.
    expect 2 'required' "$vine" table tuning
    expect 2 'unknown argument' "$vine" table tuning --in small.json --metric min
    expect 2 'more than one --in' "$vine" table tuning --in small.json --in small.json
    expect 2 "'scater' is not a collective" "$vine" table tuning --in small.json --coll bcast,scater
    expect 2 'is not a collective' "$vine" table tuning --in small.json --coll bcast,
    expect 1 'small.json has no rules for scatter' "$vine" table tuning --in small.json --coll scatter
    expect 2 "small.json is a tuning file: see 'vine table tuning" "$vine" table best --in small.json
    ok "$vine" table tuning --help
    grep -q 'vine table tuning --in FILE' out.txt || fail "no usage on stdout"
    ;;
*)
    fail "unknown case $case_name"
    ;;
esac
echo "bench_table $case_name: passed"
