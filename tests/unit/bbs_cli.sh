#!/bin/sh
# Tests of the `vine bbs` command line (tests/unit/bbs_cli.cmake registers one
# ctest per case):
#   sh bbs_cli.sh CASE VINE WORKDIR
# Prints what it checks and exits non-zero at the first failure.
set -u
case_name=$1
vine=$2
work=$3
. "$(dirname "$0")/../testlib.sh"
fresh_workdir "$work"

case $case_name in
table)
    run "$vine" bbs table --topo 4x4 --n 100
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "table exited $rc"
    # The paper's Table 2 figures for 4x4, N = 100, each beside ours.
    grep -Eq '^4x4 +16 +100  BBS +[0-9]+ +212 ' out.txt || fail "no BBS row with the paper's 212"
    grep -Eq '^ +16 +100  Greedy +[0-9]+ +266 ' out.txt || fail "no Greedy row with 266"
    grep -Eq '^ +16 +100  Binary tree +303 +303 ' out.txt ||
        fail "no Binary tree row with our 303 beside the paper's 303"
    grep -Eq '^ +16 +100  SRDA +[0-9]+ +360 ' out.txt || fail "no SRDA row with 360"
    grep -Eq '^ +16 +100  Hybrid +[0-9]+ +- ' out.txt || fail "no Hybrid row"
    # The bound ceil(100 * 15 / 8) = 188 on every row.
    [ "$(grep -Ec ' 188  ' out.txt)" = 5 ] || fail "the lower bound 188 is not on 5 rows"
    grep -q 'SRDA: scatter .* allgather by neighbour exchange' out.txt ||
        fail "the SRDA allgather is not named"
    grep -Eq 'every schedule checked' out.txt || fail "no summary line"
    grep -Eq '^time: [0-9.]+ s$' out.txt || fail "no time line"
    ;;
csv)
    run "$vine" bbs table --topo 16K3,grid:3x3 --n 1,20 --csv t.csv
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "table exited $rc"
    head -1 t.csv | grep -q '^topology,nodes,edges,N,algorithm,T,paper_T,' || fail "CSV header"
    # 2 topologies x 2 N x 5 algorithms.
    [ "$(($(wc -l <t.csv) - 1))" = 20 ] || fail "want 20 CSV rows"
    grep -q '^16K3,16,24,1,BBS,' t.csv || fail "no 16K3 N=1 BBS row"
    grep -q '^3x3,9,12,20,Hybrid,' t.csv || fail "no 3x3 N=20 hybrid row"
    ;;
plot)
    command -v gnuplot >/dev/null 2>&1 || fail "gnuplot is not installed"
    run "$vine" bbs plot --topo 4x4 --n 20 --out a.svg
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "plot exited $rc"
    grep -q '<svg' a.svg || fail "a.svg is not an SVG"
    grep -q 'Active edges per step' a.svg || fail "no title in a.svg"
    grep -q '^plot: a.svg$' out.txt || fail "no plot line"
    for a in BBS Hybrid Greedy 'Binary tree' SRDA; do
        grep -q "^$a *T = " out.txt || fail "no line for $a"
    done
    ;;
nognuplot)
    run env PATH=/nonexistent "$vine" bbs plot --topo 4x4 --n 20 --out a.svg
    cat out.txt err.txt
    [ "$rc" = 1 ] || fail "exit status $rc, want 1"
    grep -q 'needs gnuplot' err.txt || fail "no message about gnuplot"
    ;;
bad)
    n=0
    while IFS='|' read -r args want; do
        [ -n "$args" ] || continue
        # Word splitting of $args is intended: it is an argument list.
        # shellcheck disable=SC2086
        run "$vine" bbs $args
        [ "$rc" = 2 ] || fail "'$args' exited $rc, want 2"
        grep -q -- "$want" err.txt || { cat err.txt; fail "'$args': no '$want'"; }
        n=$((n + 1))
    done <<'CASES'
nosuch|unknown subcommand
table --n 0|--n: '0' is not a packet count
table --n x|is not a packet count
table --topo nosuch|--topo nosuch: graph 'nosuch': unknown
table --topo grid:4|expected grid:AxB
table --topo edges:/nonexistent/e.txt|/nonexistent/e.txt: cannot open
table --bogus|unknown argument
table --n|needs a value
plot --topo 4x4 --n 5|are required
plot --topo 4x4 --n 0 --out a.svg|not a packet count
CASES
    echo "$n bad invocations refused"
    ;;
*)
    fail "unknown case $case_name"
    ;;
esac
echo "ok: $case_name"
