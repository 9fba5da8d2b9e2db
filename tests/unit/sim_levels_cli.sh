#!/bin/sh
# Tests of the hierarchical algorithms in `vine sim traffic` and `vine sim
# allocations` (tests/unit/sim_levels.cmake registers one ctest per case):
#   sh sim_levels_cli.sh CASE VINE CHECKER WORKDIR
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

# The CSV field $2 (1-based) of the row of coll $3 and algo $4 in file $1.
field() {
    awk -F, -v c="$3" -v a="$4" -v f="$2" '$2 == c && $3 == a { print $f }' "$1"
}

# A small Dragonfly: 4 routers of 2 hosts per group, 2 global links per
# router, 9 groups; host h on router h/2 of group h/8.
DF="dragonfly:a=4,p=2,h=2"
# 16 ranks, 2 per host, on hosts 7 7 10 10 11 11 30 30 31 31 35 35 40 40 62 62
# (docs/sim.md): 8 hosts on 6 routers in 6 groups.
PL="random-groups:seed=7,ppn=2"

case $case_name in
traffic)
    run "$vine" sim traffic --topo "$DF" --ranks 16 --placement "$PL" --coll gather,bcast \
        --algo binomial,leader,hier --size 1KiB --csv t.csv --json t.json
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "traffic exited $rc"
    # One router per group here, so the group level is the switch level's
    # partition and is dropped.
    grep -q '^levels: node (8 groups), switch (6 groups) (from the topology)$' out.txt ||
        fail "levels line missing or wrong"
    "$check" json t.json placement levels rows cross_group_bytes || fail "t.json"
    "$check" csv t.csv 4 || fail "t.csv"
    grep -q '"levels": \[{"level": "node", "groups": 8}, {"level": "switch", "groups": 6}\]' \
        t.json || fail "t.json: levels of the run"
    # By hand, 1 KiB blocks, root 0 on host 7 (group 0 holds ranks 0-1, group
    # 1 ranks 2-5, group 3 ranks 6-9, groups 4, 5, 7 two ranks each).
    # gather binomial: 8->0 (8 blocks), 4->0 (4), 2->0 (2), 12->8 (4),
    # 10->8 (2), 14->12 (2), 6->4 (2) cross groups: 24 KiB.  gather leader:
    # the binomial tree among the 6 switch leaders in relative order
    # (groups 0 1 3 4 5 7): 1->0 (4 blocks), 2->0 (group 3 and 4: 6),
    # 3->2 (2), 4->0 (groups 5 and 7: 4), 5->4 (2): 18 KiB.  bcast binomial:
    # 0->8, 0->4, 0->2, 8->12, 8->10, 4->6, 12->14: 7 KiB; bcast hier: one
    # message into each of the 5 other groups: 5 KiB.
    for want in "gather binomial 24576 0.0000" "gather leader 18432 25.0000" \
        "bcast binomial 7168 0.0000" "bcast hier 5120 28.5714"; do
        # Word splitting of $want is intended: coll, algo, xgroup, saved.
        # shellcheck disable=SC2086
        set -- $want
        got="$(field t.csv 13 "$1" "$2") $(field t.csv 18 "$1" "$2")"
        [ "$got" = "$3 $4" ] || fail "$1 $2: xgroup and saved '$got', want '$3 $4'"
        echo "ok: $1 $2 xgroup $3 saved $4"
    done
    # --algo all lists the hierarchical algorithms like the others.
    run "$vine" sim traffic --topo "$DF" --ranks 16 --placement "$PL" --coll gather,bcast,scatter \
        --algo all --size 1KiB
    [ "$rc" = 0 ] || fail "--algo all exited $rc"
    for row in ' gather +leader +1KiB +[0-9]' ' scatter +leader +1KiB +[0-9]' \
        ' bcast +hier +1KiB +[0-9]'; do
        grep -Eq "$row" out.txt || fail "--algo all: no row '$row'"
    done
    # A hierarchical baseline: flat binomial against leader.
    run "$vine" sim traffic --topo "$DF" --ranks 16 --placement "$PL" --coll gather \
        --algo binomial,leader --baseline leader --size 1KiB
    cat out.txt
    grep -Eq ' gather +leader +1KiB .* 18.0KiB +base ' out.txt || fail "leader is not the base"
    grep -Eq ' gather +binomial +1KiB .* 24.0KiB +-33.3% ' out.txt ||
        fail "binomial against leader: want -33.3%"
    ;;
options)
    # --levels flat: the hierarchical algorithms skip, the flat ones run.
    run "$vine" sim traffic --topo "$DF" --ranks 16 --placement "$PL" --coll bcast \
        --algo binomial,hier --size 1KiB --levels flat
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "--levels flat exited $rc"
    grep -q '^levels: none (flat' out.txt || fail "--levels flat: levels line"
    grep -Eq ' bcast +hier +1KiB +skip: ' out.txt || fail "--levels flat: hier should skip"
    # A synthetic map runs with it.
    run "$vine" sim traffic --topo "$DF" --ranks 16 --placement "$PL" --coll bcast \
        --algo hier --size 1KiB --levels block:4
    [ "$rc" = 0 ] && grep -q '^levels: level 0 (4 groups)$' out.txt &&
        grep -Eq ' bcast +hier +1KiB +[0-9]' out.txt || fail "--levels block:4: $(cat out.txt)"
    # A mesh with one rank per host has no level: skip rows, exit 0.
    run "$vine" sim traffic --topo mesh:4x4 --ranks 16 --coll gather --algo leader --size 1KiB
    [ "$rc" = 0 ] && grep -q '^levels: none (flat' out.txt &&
        grep -Eq ' gather +leader +1KiB +skip: ' out.txt || fail "mesh: $(cat out.txt err.txt)"
    # A torus gives the job's torus: its lines are a level, and the torus line says the shape.
    run "$vine" sim traffic --topo torus:4x4 --ranks 16 --coll gather --algo leader --size 1KiB
    [ "$rc" = 0 ] && grep -q '^levels: torus line (4 groups) (from the topology)$' out.txt &&
        grep -q '^torus: 4x4 ' out.txt &&
        grep -Eq ' gather +leader +1KiB +[0-9]' out.txt || fail "torus: $(cat out.txt err.txt)"
    # A bad map stops the tool with exit 2 and the reason.
    run "$vine" sim traffic --topo "$DF" --ranks 16 --coll bcast --size 1KiB --levels bogus:3
    [ "$rc" = 2 ] && grep -q -- '--levels bogus:3 with 16 ranks: ' err.txt ||
        fail "bad --levels: exit $rc, $(cat err.txt)"
    # vine sim allocations measures a hierarchical algorithm on each allocation's levels.
    run "$vine" sim allocations --topo "$DF" --nodes 8,16 --samples 4 --ppn 2 --coll bcast \
        --algo hier --size 1KiB
    cat out.txt err.txt
    [ "$rc" = 0 ] || fail "allocations exited $rc"
    grep -Eq '^8 +4 ' out.txt && grep -Eq '^16 +4 ' out.txt || fail "allocations: rows"
    grep -Eq '^16 +4 .* 0$' out.txt || fail "allocations: skipped allocations"
    ;;
remap)
    # Ranks dealt round-robin over 16 hosts and remapped to block order run
    # exactly the schedules of the block placement on the same hosts: every
    # column of every row must match.  Without --remap they differ.
    n=0
    for pl in "round-robin:ppn=2" "round-robin:ppn=2 --remap" "block:ppn=2"; do
        n=$((n + 1))
        # Word splitting of $pl is intended: it carries the --remap option.
        # shellcheck disable=SC2086
        run "$vine" sim traffic --topo "$DF" --ranks 32 --placement $pl \
            --coll bcast,reduce,allreduce,barrier \
            --algo binomial,bine,recursive_doubling,rabenseifner,dissemination \
            --size 4KiB --baseline none --csv "p$n.csv"
        [ "$rc" = 0 ] || fail "traffic --placement $pl exited $rc"
    done
    grep -q 'remapped to block order' out.txt && fail "block placement: remap claimed"
    [ "$(wc -l <p3.csv)" -eq 10 ] || fail "block placement: expected 9 rows"
    cmp -s p2.csv p3.csv || { diff p2.csv p3.csv; fail "remapped round-robin differs from block"; }
    [ "$(field p1.csv 10 bcast binomial)" != "$(field p3.csv 10 bcast binomial)" ] ||
        fail "round-robin without --remap matches block: the test shows nothing"
    echo "remapped round-robin equals block on all 9 rows"
    ;;
*)
    fail "unknown case $case_name"
    ;;
esac
echo "ok: $case_name"
