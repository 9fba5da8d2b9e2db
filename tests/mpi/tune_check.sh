#!/bin/sh
# Runs vine-tune under the MPI launcher and judges the outcome
# (tests/mpi/tune.cmake registers the cases):
#   sh tune_check.sh run WORKDIR CHECK NP MIN MAX COLLS -- COMMAND...
#       COMMAND writes t.json (relative to WORKDIR) with --progress: exit 0,
#       a progress line per case on stderr, the summary on stdout (its header,
#       one line per collective in COLLS, comma-separated, the totals, the
#       model and the file written), and CHECK (tune_check) accepts the file
#       for NP ranks, sizes MIN..MAX and the collectives of COLLS
#   sh tune_check.sh usage WORKDIR TEXT -- COMMAND...
#       exit status 2, TEXT in the message on stderr, no t.json left behind
# Prints the command's output and exits non-zero at the first failure.
set -u
mode=$1
work=$2
shift 2
case $mode in
run)
    check=$1 np=$2 min=$3 max=$4 colls=$5
    shift 5
    ;;
usage)
    text=$1
    shift
    ;;
esac
[ "${1:-}" = "--" ] && shift
. "$(dirname "$0")/../testlib.sh"
fresh_workdir "$work"

start=$(date +%s)
"$@" >out.txt 2>err.txt
rc=$?
echo "$(($(date +%s) - start)) s: $*"
cat out.txt
# Open MPI's notice of a non-zero exit is noise here; the rest of stderr is shown.
show_mpi_stderr err.txt

case $mode in
run)
    [ "$rc" = 0 ] || fail "exit status $rc"
    [ -s t.json ] || fail "no t.json"
    grep -q '^vine-tune: \[ *[0-9]*%\] .* s left, case 1/' err.txt || fail "no progress line"
    grep -Eq '^collective +ranks +cases +switched +to_mpi +ranges' out.txt ||
        fail "no summary table header"
    for c in $(echo "$colls" | tr , ' '); do
        grep -Eq "^$c +$np +[0-9]+ +[0-9]+ +[0-9]+  [0-9]" out.txt || fail "no summary line for $c"
    done
    grep -Eq '^# [0-9]+ cases measured, [0-9]+ switched away from the default \([0-9]+ to mpi\); [0-9]+ skipped' out.txt ||
        fail "no totals line"
    grep -q '^# model: alpha .* us, beta .* ns/B, gamma .* ns/B' out.txt || fail "no model line"
    grep -q '^# model: its cheapest algorithm was the measured fastest in' out.txt ||
        fail "no agreement line"
    grep -q '^# tuning file written: t.json' out.txt || fail "no line naming the file"
    # shellcheck disable=SC2046 # the collectives are separate arguments
    "$check" t.json "$np" "$min" "$max" $(echo "$colls" | tr , ' ') || fail "tune_check failed"
    ;;
usage)
    [ "$rc" = 2 ] || fail "exit status $rc, want 2"
    grep -q -- "$text" err.txt || fail "no '$text' in the message"
    grep -q '^usage: mpirun -np P vine-tune' err.txt || fail "no usage"
    [ -e t.json ] && fail "t.json was written"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
echo "tune_check $mode: passed"
