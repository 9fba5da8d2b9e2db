#!/bin/sh
# Tests of the `vine sim` command line (tests/unit/sim_cli.cmake registers one
# ctest per case):
#   sh sim_cli.sh CASE VINE CHECKER WORKDIR
# VINE is build/bin/vine, CHECKER the sim_file_check helper (JSON and CSV
# syntax), WORKDIR a scratch directory of this case.  Prints what it checks
# and exits non-zero at the first failure.
set -u
case_name=$1
vine=$2
check=$3
work=$4
. "$(dirname "$0")/../testlib.sh"
fresh_workdir "$work"

# A small Dragonfly: 4 routers of 2 hosts per group, 2 global links per
# router, 9 groups; 8 hosts per group.
DF="dragonfly:a=4,p=2,h=2"

case $case_name in
traffic)
    run "$vine" sim traffic --topo "$DF" --ranks 16 --placement block \
        --coll bcast,allreduce,alltoall --algo all --size 1KiB,64KiB --csv t.csv --json t.json
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "traffic exited $rc"
    grep -q '^topology: ' out.txt || fail "no topology line"
    grep -q '^placement: block: 16 ranks on 16 hosts in 2 groups' out.txt ||
        fail "placement line missing or wrong"
    grep -Eq ' bcast +binomial +1KiB .* base ' out.txt || fail "no baseline row for bcast"
    grep -Eq ' allreduce +bine +64KiB ' out.txt || fail "no allreduce bine row"
    "$check" json t.json topology placement rows rank_host cross_group_bytes level_bytes \
        max_link time_s reduction_pct || fail "t.json"
    "$check" csv t.csv 20 || fail "t.csv"
    # Every table row is in the CSV: 2 sizes x the three collectives' algorithms.
    nt=$(grep -Ec '^ +16  ' out.txt)
    nc=$(($(wc -l <t.csv) - 1))
    [ "$nt" = "$nc" ] || fail "$nt table rows but $nc CSV rows"
    # Hand-computed: the linear bcast of 1 KiB from rank 0 on 16 ranks, 8 per
    # group in block order, is 15 messages in one step, 15 KiB in all, of
    # which the 8 to the second group cross groups.
    line=$(grep '^16,bcast,linear,1024,ok,' t.csv) || fail "no linear bcast row"
    echo "$line" | awk -F, '$6 != 1 || $7 != 15 || $8 != 15360 || $13 != 8192 { exit 1 }' ||
        fail "linear bcast row: $line (want steps 1, messages 15, bytes 15360, xgroup 8192)"
    # The binomial baseline row compares with itself: 0%.
    grep -q '^16,bcast,binomial,1024,ok,.*,binomial,0.0000,' t.csv || fail "baseline row not 0%"
    ;;
skips)
    # reduce_scatter_block needs the 1 KiB block to be whole 4-byte elements;
    # 2 bytes are not, so every algorithm prints a skip row, and the run passes.
    run "$vine" sim traffic --topo "$DF" --ranks 8 --coll reduce_scatter_block --size 2B,8B
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "exited $rc"
    grep -Eq ' 2B +skip: ' out.txt || fail "no skip row for 2B"
    grep -Eq ' 8B +[0-9]+ ' out.txt || fail "no result row for 8B"
    ;;
allocations)
    run "$vine" sim allocations --topo "$DF" --nodes 8..32 --samples 6 --seed 3 \
        --plot box.svg --csv a.csv
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "allocations exited $rc"
    grep -Eq '^nodes +allocs +groups +min +q1 +median +q3 +max +mean' out.txt ||
        fail "no table header"
    for n in 8 16 32; do
        grep -Eq "^$n +6 " out.txt || fail "no row for $n nodes with 6 allocations"
    done
    [ -s box.svg ] || fail "box.svg missing or empty"
    grep -q '<svg' box.svg && grep -q '</svg>' box.svg || fail "box.svg is not a whole SVG"
    "$check" csv a.csv 18 || fail "a.csv"
    # Same seed, same allocations: the run is reproducible.
    grep -E '^[0-9]+ ' out.txt >first.txt
    run "$vine" sim allocations --topo "$DF" --nodes 8..32 --samples 6 --seed 3
    grep -E '^[0-9]+ ' out.txt >again.txt
    cmp -s first.txt again.txt || fail "a second run with the same seed differs"
    ;;
file)
    # Allocations from a file, hand-computed: on 8 hosts per group, the
    # binomial bcast from rank 0 crosses groups once per group boundary it
    # halves over (1 message for 2 groups, 3 for 4), linear once per rank
    # outside rank 0's group, so linear saves 1 - linear/binomial.
    cat >allocs.txt <<'EOF2'
# two groups, 8 + 8 ranks: binomial 1, linear 8 -> -700%
h[0-15]
# four groups of 4: binomial 3, linear 12 -> -300%
h[0-3,8-11,16-19,24-27]
h[0-7]   # one group: nothing crosses, 0%
h[4-11]  # 4 + 4: binomial 1, linear 4 -> -300%

h[0-31]  # four groups of 8: binomial 3, linear 24 -> -700%
EOF2
    run "$vine" sim allocations --topo "$DF" --file allocs.txt --algo linear --baseline binomial \
        --size 1KiB --csv f.csv
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "exited $rc"
    grep -Eq '^8 +2 +1\.5 +-300\.0% +-225\.0% +-150\.0% +-75\.0% +0\.0% +-150\.0% +0$' out.txt ||
        fail "class 8 row"
    grep -Eq '^16 +2 +3\.0 +-700\.0% +-600\.0% +-500\.0% +-400\.0% +-300\.0% +-500\.0% +0$' \
        out.txt || fail "class 16 row"
    grep -Eq '^32 +1 +4\.0 +-700\.0% ' out.txt || fail "class 32 row"
    "$check" csv f.csv 5 || fail "f.csv"
    grep -q '^16,16,16,file,,2,2,ok,binomial,1024,linear,8192,-700.0000$' f.csv ||
        fail "f.csv: line 2's allocation"
    # Bad lines name the file and line.
    printf 'h[0-3]\nh[0-3],zz\n' >bad1.txt
    run "$vine" sim allocations --topo "$DF" --file bad1.txt
    [ "$rc" = 2 ] && grep -q "bad1.txt:2: unknown host zz" err.txt ||
        fail "unknown host: exit $rc, $(cat err.txt)"
    printf 'h[0-3]\n\nh[4-\n' >bad2.txt
    run "$vine" sim allocations --topo "$DF" --file bad2.txt
    [ "$rc" = 2 ] && grep -q "bad2.txt:3: " err.txt ||
        fail "malformed hostlist: exit $rc, $(cat err.txt)"
    printf 'h[0-3],h2\n' >bad3.txt
    run "$vine" sim allocations --topo "$DF" --file bad3.txt
    [ "$rc" = 2 ] && grep -q "bad3.txt:1: host h2 given twice" err.txt ||
        fail "duplicate host: exit $rc, $(cat err.txt)"
    ;;
nognuplot)
    # With gnuplot out of PATH, --plot fails clearly (exit 1) before simulating.
    run env PATH=/nonexistent "$vine" sim allocations --topo "$DF" --nodes 8 --samples 2 \
        --plot box.svg
    cat out.txt err.txt
    [ "$rc" = 1 ] || fail "exit status $rc, want 1"
    grep -q 'needs gnuplot' err.txt || fail "no message about gnuplot"
    ;;
bad)
    # Each bad invocation exits 2 with a message naming the problem.
    T="sim traffic --topo $DF --ranks 16 --coll bcast --size 1KiB"
    A="sim allocations --topo $DF --nodes 8"
    n=0
    while IFS='|' read -r args want; do
        [ -n "$args" ] || continue
        # Word splitting of $args is intended: it is an argument list.
        # shellcheck disable=SC2086
        run "$vine" $args
        n=$((n + 1))
        if [ "$rc" != 2 ] || ! grep -q -- "$want" err.txt; then
            cat out.txt err.txt
            fail "'vine $args': exit $rc (want 2), stderr should contain '$want'"
        fi
        echo "ok: vine $args -> $(head -n 1 err.txt)"
    done <<EOF
sim|usage: vine sim
sim bogus|unknown subcommand
$T --bogus|unknown option '--bogus'
$T --size 12Q|malformed --size
$T --size 64B..8B|malformed --size
$T --coll nope|unknown collective 'nope'
$T --algo nope|no algorithm 'nope'
$T --baseline nope|--baseline: no algorithm
$T --root 16|--root 16 is not below --ranks 16
$T --ranks 0|malformed --ranks
$T --ranks 10000|--placement block with 10000 ranks
$T --placement nowhere|--placement nowhere
$T --csv /nonexistent/dir/t.csv|cannot open for writing
$T --ranks|needs a value
sim traffic --ranks 16 --coll bcast --size 1KiB|--topo, --ranks and --coll are required
sim traffic --topo nosuch:3 --ranks 16 --coll bcast --size 1KiB|--topo nosuch:3
sim traffic --topo $DF --ranks 16 --coll bcast|--size is required
$A --nodes x|malformed --nodes
$A --coll nope|unknown collective 'nope'
$A --algo nope|no algorithm 'nope'
$A --samples 0|malformed --samples
$A --nodes 1000|only 72 hosts
$A --file /nonexistent/allocs.txt|cannot open
sim allocations --nodes 8|--topo and --nodes (or --file) are required
EOF
    [ "$n" -ge 20 ] || fail "only $n cases ran"
    ;;
*)
    fail "unknown case $case_name"
    ;;
esac
echo "ok: $case_name"
