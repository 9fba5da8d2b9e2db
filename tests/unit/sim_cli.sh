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
    # --lat-factor and --bw-factor (SMPI's per-message factors): the linear
    # bcast's one step of 1 KiB messages takes lat(1024) = 1.61075 times the
    # latency and its bandwidth term over bw(1024) = 0.341987 (SMPI's
    # defaults); with T0:V0 factors of 2 and 0.5, exactly 2 lat + 2 bw, twice
    # the time without them.
    t0=$(awk -F, '$2 == "bcast" && $3 == "linear" && $4 == 1024 { print $16 }' t.csv)
    run "$vine" sim traffic --topo "$DF" --ranks 16 --coll bcast --algo linear --size 1KiB \
        --lat-factor 0:2 --bw-factor 0:0.5 --csv f.csv
    [ "$rc" = 0 ] || fail "factors: exit $rc"
    t2=$(awk -F, 'NR == 2 { print $16 }' f.csv)
    awk -v a="$t0" -v b="$t2" 'BEGIN { exit !(a > 0 && (b / a - 2) ^ 2 < 1e-18) }' ||
        fail "factors 2 and 0.5: $t2 s, want twice $t0 s"
    run "$vine" sim traffic --topo "$DF" --ranks 16 --coll bcast --algo linear --size 1KiB \
        --lat-factor smpi --bw-factor smpi --csv s.csv --json s.json
    [ "$rc" = 0 ] || fail "smpi factors: exit $rc"
    grep -q '^time model: step clock, latency factor smpi, bandwidth factor smpi$' out.txt ||
        fail "no time model line"
    grep -q '"time_model": {"clock": "step", "lat_factor": "smpi", "bw_factor": "smpi"}' s.json ||
        fail "no time_model in the JSON"
    "$check" json s.json time_model rows || fail "s.json"
    ts=$(awk -F, 'NR == 2 { print $16 }' s.csv)
    awk -v a="$t0" -v b="$ts" 'BEGIN { exit !(b > 1.6 * a && b < 2.93 * a) }' ||
        fail "smpi factors: $ts s, want between 1.61 and 2.92 times $t0 s"
    # --clock rank: the linear bcast is one step, so every rank's clock ends
    # where the step does; the binomial bcast of 64 KiB, three steps whose
    # messages do not all start together, ends no later than on steps.
    run "$vine" sim traffic --topo "$DF" --ranks 16 --coll bcast --algo linear,binomial \
        --size 1KiB,64KiB --clock rank --csv r.csv
    [ "$rc" = 0 ] || fail "--clock rank: exit $rc"
    tr=$(awk -F, '$3 == "linear" && $4 == 1024 { print $16 }' r.csv)
    [ "$tr" = "$t0" ] || fail "--clock rank, linear bcast: $tr s, want $t0 s"
    bs=$(awk -F, '$2 == "bcast" && $3 == "binomial" && $4 == 65536 { print $16 }' t.csv)
    br=$(awk -F, '$3 == "binomial" && $4 == 65536 { print $16 }' r.csv)
    awk -v a="$bs" -v b="$br" 'BEGIN { exit !(b > 0 && b <= a) }' ||
        fail "--clock rank, binomial bcast: $br s, want at most $bs s"
    ;;
vdist)
    # The v collectives with irregular blocks (--dist).  Every expected value
    # is computed here from the distribution.  Block placement on $DF: ranks
    # 0-7 in group 0, 8-11 in group 1.
    #
    # skew:100,10 on 12 ranks: rank 0's block 1000, the others 100.
    run "$vine" sim traffic --topo "$DF" --ranks 12 --coll allgatherv,gatherv,scatterv \
        --algo ring,linear --root 3 --baseline none --dist skew:100,10 --csv s.csv --json s.json
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "skew: exited $rc"
    grep -q '^v collectives: blocks of --dist skew:100,10 ' out.txt || fail "no --dist line"
    p=12
    sum=$((1000 + (p - 1) * 100))
    # Ring allgatherv: rank r receives every block but its own, one message per
    # block; the two edges between the groups, 7->8 and 11->0, carry all blocks
    # but rank 8's and all but rank 0's.  The size column is the mean block.
    row=$(grep '^12,allgatherv,ring,' s.csv) || fail "no allgatherv ring row"
    echo "$row" | awk -F, -v sz=$((sum / p)) -v m=$((p * (p - 1))) -v b=$(((p - 1) * sum)) \
        -v x=$((sum - 100 + sum - 1000)) \
        '$4 != sz || $5 != "ok" || $7 != m || $8 != b || $13 != x { exit 1 }' ||
        fail "allgatherv ring: $row (want size $((sum / p)), $((p * (p - 1))) messages," \
            "$(((p - 1) * sum)) bytes, xgroup $((2 * sum - 1100)))"
    # The last field, dist, is quoted: it holds a comma.
    echo "$row" | grep -q ',"skew:100,10"$' || fail "allgatherv ring: dist field of $row"
    # Linear gatherv to root 3 and scatterv from it: every block but the
    # root's, once; those of ranks 8-11 cross groups.
    for c in gatherv scatterv; do
        row=$(grep "^12,$c,linear," s.csv) || fail "no $c linear row"
        echo "$row" | awk -F, -v b=$((sum - 100)) '$7 != 11 || $8 != b || $13 != 400 { exit 1 }' ||
            fail "$c linear: $row (want 11 messages, $((sum - 100)) bytes, xgroup 400)"
    done
    "$check" json s.json dist rows cross_group_bytes || fail "s.json"
    "$check" csv s.csv 3 || fail "s.csv"
    #
    # A file of 12 x 12 blocks for alltoallv: block i -> j is
    # 16 ((7 i + 3 j) mod 5), zeros included.
    awk -v p=$p 'BEGIN { print "# block i -> j, row i"
        for (i = 0; i < p; i++) { l = ""
            for (j = 0; j < p; j++) l = l " " 16 * ((7 * i + 3 * j) % 5)
            print l } }' >blocks.txt
    # Messages and bytes: the non-empty blocks off the diagonal (empty ones
    # send nothing, the own block is a copy); xgroup: those between groups.
    want=$(awk -v p=$p 'NR > 1 { i = NR - 2
            for (j = 0; j < p; j++) { b = $(j + 1); all += b; if (i == j || b == 0) continue
                m++; bytes += b; if ((i < 8) != (j < 8)) x += b } }
        END { printf "%d %d %d %d", int(all / (p * p)), m, bytes, x }' blocks.txt)
    set -- $want
    [ "$3" -gt 0 ] && [ "$2" -lt $((p * (p - 1))) ] || fail "blocks.txt: no zeros or no bytes"
    run "$vine" sim traffic --topo "$DF" --ranks 12 --coll alltoallv --algo pairwise,linear \
        --dist file:blocks.txt --csv f.csv
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "file: exited $rc"
    for a in pairwise linear; do
        row=$(grep "^12,alltoallv,$a," f.csv) || fail "no alltoallv $a row"
        echo "$row" | awk -F, -v sz="$1" -v m="$2" -v b="$3" -v x="$4" \
            '$4 != sz || $7 != m || $8 != b || $13 != x || $20 != "file:blocks.txt" { exit 1 }' ||
            fail "alltoallv $a: $row (want size $1, $2 messages, $3 bytes, xgroup $4)"
    done
    # The same file, 144 numbers, is no list of 144 per-rank blocks for 12 ranks.
    run "$vine" sim traffic --topo "$DF" --ranks 12 --coll allgatherv --dist file:blocks.txt
    [ "$rc" = 2 ] && grep -q 'the file has 144 numbers; 12 ranks need 12' err.txt ||
        fail "allgatherv with a p x p file: exit $rc, $(cat err.txt)"
    #
    # Without --dist every block is the size: alltoallv moves what alltoall does.
    run "$vine" sim traffic --topo "$DF" --ranks 12 --coll alltoall,alltoallv --algo pairwise \
        --size 1KiB --csv u.csv
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "uniform: exited $rc"
    for c in alltoall alltoallv; do
        grep "^12,$c,pairwise,1024,ok," u.csv |
            awk -F, '$7 != 132 || $8 != 135168 || $13 != 65536 { bad = 1 }
                END { exit bad || NR != 1 }' ||
            fail "$c pairwise 1KiB: want 132 messages, 135168 bytes, xgroup 65536 (2 x 4 x 8" \
                "messages of 1 KiB): $(grep "^12,$c," u.csv)"
    done
    grep -q '^12,alltoallv,pairwise,.*,uniform:1024$' u.csv || fail "alltoallv dist uniform:1024"
    grep -q '^12,alltoall,pairwise,.*,$' u.csv || fail "alltoall has a dist"
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
export)
    # vine sim export with --hostfile and --map (issue 21): the map gives every
    # host its router and group, as vine sim's level map groups them, in the
    # form of VINE_TOPOLOGY's map; its hosts are the host file's, in order; the
    # platform reads back, and a hosts: placement of its names replays on it.
    run "$vine" sim export --topo dragonfly:a=2,p=2,h=1 --simgrid df.xml --hostfile df.hosts \
        --map df.map
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "exited $rc"
    grep -q '^wrote df.map: the switch and group of 12 hosts$' out.txt || fail "no map line"
    cat >want.map <<'EOF2'
# written by vine sim export from dragonfly a=2 p=2 h=1 g=3: HOST SWITCH GROUP
h0 s0 g0
h1 s0 g0
h2 s1 g0
h3 s1 g0
h4 s6 g1
h5 s6 g1
h6 s7 g1
h7 s7 g1
h8 s12 g2
h9 s12 g2
h10 s13 g2
h11 s13 g2
EOF2
    cmp -s want.map df.map || fail "df.map: $(diff want.map df.map)"
    awk 'NR > 1 { print $1 }' df.map | cmp -s - df.hosts || fail "df.hosts differs from the map"
    run "$vine" sim traffic --topo simgrid:df.xml --placement hosts:df.hosts --ranks 8 \
        --coll allreduce --algo hier --size 1KiB
    cat out.txt err.txt
    [ "$rc" = 0 ] && grep -q 'hier' out.txt || fail "traffic on the exported platform: exit $rc"
    run "$vine" sim export --topo dragonfly:a=2,p=2,h=1 --simgrid df.xml --map /nonexistent/m
    [ "$rc" = 1 ] && grep -q "/nonexistent/m: cannot write" err.txt ||
        fail "unwritable map: exit $rc, $(cat err.txt)"
    # --cluster: SimGrid's own FAT_TREE of a fat tree, which vine reads back.
    run "$vine" sim export --topo fattree:down=2/2,up=2 --simgrid ft.xml --cluster
    cat out.txt err.txt
    [ "$rc" = 0 ] && grep -q 'topology="FAT_TREE" topo_parameters="2;2,2;1,2;1,1"' ft.xml ||
        fail "--cluster: exit $rc"
    run "$vine" sim traffic --topo simgrid:ft.xml --ranks 4 --coll allreduce --size 1KiB
    [ "$rc" = 0 ] && grep -q '4 hosts' out.txt || fail "traffic on the cluster: exit $rc"
    run "$vine" sim export --topo dragonfly:a=2,p=2,h=1 --simgrid df.xml --cluster
    [ "$rc" = 2 ] && grep -q "SimGrid has no cluster of this topology" err.txt ||
        fail "--cluster of a Dragonfly: exit $rc, $(cat err.txt)"
    run "$vine" sim export --topo fattree:down=2/2,up=2 --simgrid ft.xml --cluster \
        --routing Floyd
    [ "$rc" = 2 ] && grep -q "a cluster has its own routing" err.txt ||
        fail "--cluster with --routing: exit $rc, $(cat err.txt)"
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
    V="sim traffic --topo $DF --ranks 16 --coll allgatherv,alltoallv"
    printf '1 2 3\n4 5 # five blocks\n' >five.txt
    printf '1\n2 x3\n' >badnum.txt
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
$T --lat-factor 5|--lat-factor: factor '5': expected THRESHOLD:VALUE
$T --bw-factor 0:0|--bw-factor: factor '0:0': expected a positive value
$T --clock sideways|--clock sideways: expected step or rank
sim traffic --ranks 16 --coll bcast --size 1KiB|--topo, --ranks and --coll are required
sim traffic --topo nosuch:3 --ranks 16 --coll bcast --size 1KiB|--topo nosuch:3
sim traffic --topo $DF --ranks 16 --coll bcast|--size is required
$V|--size is required
$V --dist zipf:10|--dist zipf:10: 'zipf:10': wrong number of fields; expected zipf:N,S
$V --dist skew:10,0|F is not an integer >= 1
$V --dist pareto:3|not a distribution
$V --dist file:five.txt|--dist file:five.txt with 16 ranks (allgatherv): the file has 5 numbers
$V --dist file:badnum.txt|badnum.txt:2: 'x3' is not an integer
$V --dist file:nothere.txt|nothere.txt: cannot open
$T --dist uniform:8|--coll names none of them
$A --coll gatherv --algo linear --dist file:five.txt|with 8 ranks: the file has 5 numbers
$A --dist uniform:8|not of bcast
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
