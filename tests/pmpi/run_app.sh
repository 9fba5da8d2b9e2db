#!/bin/sh
# Runs tests/pmpi/app.c (a plain MPI program) with VINE_VERBOSE=1 and checks,
# besides its exit status, that vine served its collectives: stderr must
# hold, once each, the line `vine: <coll> on MPI_COMM_WORLD (p=NP) served
# by ...` for all ten collectives, and one for each on the split
# communicator `pmpi_split`; no call on MPI_COMM_WORLD may have been passed
# to MPI; the MPI_SUM-on-a-derived-type allreduce on `pmpi_errors` must have
# been (`passed to MPI`); and no other `vine:` line may appear.  With
# --expect inter, the intercommunicator's MPI_Allreduce and MPI_Bcast must
# have been passed to MPI, one line each.  vine's level discovery runs once
# per communicator through PMPI (not through this library's collectives),
# so MPI_COMM_WORLD has exactly one `vine: levels of ...` line.
#
# Each --comm NAME (tests/pmpi/app_nb.c: pmpi_dup, pmpi_persist) names one
# more communicator that must have a 'served by' line for each collective,
# as pmpi_split must.  --also "COLL ..." (app_nb.c: allgatherv ... exscan)
# names collectives checked as the ten are, on every one of them.
#
# With --tuning FILE the ranks get VINE_TUNING_FILE=FILE, stderr must hold
# its one `vine: tuning file FILE: N rules` line, and --served "coll=algo
# ..." names the algorithm each listed collective on MPI_COMM_WORLD must be
# served by.
#
# usage: run_app.sh --launcher CMD [--np-flag -np] --flavor openmpi|mpich --np N
#                   [--preload LIB[:LIB...]] [--expect world|inter]
#                   [--tuning FILE --served "COLL=ALGO ..."] [--comm NAME ...]
#                   [--also "COLL ..."]
#                   -- APP [ARGS]
#
# --preload sets LD_PRELOAD in the ranks only, not in the launcher: through
# `-x NAME=VALUE` for Open MPI (whose mpirun forwards its environment to
# ranks on its own host but not to other hosts, where -x is needed) and
# `-genv NAME VALUE` for MPICH's hydra.  An LD_PRELOAD already set (the MPICH
# tests' scripts/mpich_yield.c) stays, after the libraries given.
set -u

launcher='' np_flag=-np flavor='' np='' preload='' expect=world tuning='' served=
comms=pmpi_split also=
while [ $# -gt 0 ]; do
    case $1 in
    --launcher) launcher=$2; shift 2 ;;
    --np-flag) np_flag=$2; shift 2 ;;
    --flavor) flavor=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --preload) preload=$2; shift 2 ;;
    --expect) expect=$2; shift 2 ;;
    --tuning) tuning=$2; shift 2 ;;
    --served) served=$2; shift 2 ;;
    --comm) comms="$comms $2"; shift 2 ;;
    --also) also=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "run_app.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
if [ -z "$launcher" ] || [ -z "$np" ] || [ $# -eq 0 ]; then
    echo "usage: run_app.sh --launcher CMD --flavor F --np N [--preload L] [--expect E] -- APP" >&2
    exit 2
fi

# The tests want the automatic choice and no fallback line: drop whatever
# vine settings the caller's environment holds.
for v in $(env | sed -n 's/^\(VINE_[A-Z_]*\)=.*/\1/p'); do
    unset "$v"
done
if [ -n "$preload" ]; then
    preload="$preload${LD_PRELOAD:+:$LD_PRELOAD}"
fi
case $flavor in
openmpi)
    env_args="-x VINE_VERBOSE=1${preload:+ -x LD_PRELOAD=$preload}${tuning:+ -x VINE_TUNING_FILE=$tuning}" ;;
mpich)
    env_args="-genv VINE_VERBOSE 1${preload:+ -genv LD_PRELOAD $preload}${tuning:+ -genv VINE_TUNING_FILE $tuning}" ;;
*)
    echo "run_app.sh: --flavor must be openmpi or mpich" >&2; exit 2 ;;
esac

err=$(mktemp)
trap 'rm -f "$err"' EXIT
# The paths hold no spaces (CMake build tree); the options split into words.
# shellcheck disable=SC2086
$launcher "$np_flag" "$np" $env_args "$@" 2>"$err"
rc=$?
cat "$err" >&2

fail=0
problem() {
    echo "run_app.sh: $*" >&2
    fail=1
}
[ "$rc" -eq 0 ] || problem "the program exited with status $rc"

# count PATTERN: the number of lines of stderr matching the extended regex.
count() {
    grep -cE "$1" "$err"
}
for coll in bcast reduce allreduce reduce_scatter reduce_scatter_block allgather alltoall \
    gather scatter barrier $also; do
    n=$(count "^vine: $coll on MPI_COMM_WORLD \\(p=$np\\) served by ")
    [ "$n" -eq 1 ] || problem "$n 'served by' lines for $coll on MPI_COMM_WORLD, want 1"
    for comm in $comms; do
        n=$(count "^vine: $coll on $comm \\(p=[0-9]+\\) served by ")
        [ "$n" -ge 1 ] || problem "no 'served by' line for $coll on $comm"
    done
done
n=$(count "^vine: .* on MPI_COMM_WORLD .*passed to MPI")
[ "$n" -eq 0 ] || problem "$n calls on MPI_COMM_WORLD were passed to MPI"
n=$(count "^vine: allreduce on pmpi_errors \\(p=$np\\) passed to MPI \\(.+\\)$")
[ "$n" -eq 1 ] || problem "$n 'passed to MPI' lines for allreduce on pmpi_errors, want 1"
passed=1
if [ "$expect" = inter ]; then
    passed=3
    for coll in allreduce bcast; do
        n=$(count "^vine: $coll on communicator #[0-9]+ \\(p=$np\\) passed to MPI \\(intercommunicator\\)$")
        [ "$n" -eq 1 ] || problem "$n 'passed to MPI' lines for the intercommunicator's $coll, want 1"
    done
    # One number for the intercommunicator, another for the half that vine
    # serves (libvine and libvine-mpi count unnamed communicators together).
    inter_n=$(sed -nE 's/^vine: [a-z_]+ on communicator #([0-9]+) .*passed to MPI \(intercommunicator\)$/\1/p' "$err" | sort -u)
    half_n=$(sed -nE 's/^vine: barrier on communicator #([0-9]+) \(p=[0-9]+\) served by .*/\1/p' "$err" | sort -u)
    [ "$(echo "$inter_n" | wc -w)" -eq 1 ] || problem "the intercommunicator's lines name '$inter_n', want one number"
    [ -n "$half_n" ] || problem "no 'served by' line for the barrier on half of MPI_COMM_WORLD"
    for n in $half_n; do
        [ "$n" != "$inter_n" ] || problem "the intercommunicator and a communicator vine serves are both #$n"
    done
fi
n=$(count "^vine: .* passed to MPI")
[ "$n" -eq "$passed" ] || problem "$n 'passed to MPI' lines in all, want $passed"
for pair in $served; do
    n=$(count "^vine: ${pair%%=*} on MPI_COMM_WORLD \\(p=$np\\) served by ${pair#*=}\$")
    [ "$n" -eq 1 ] || problem "${pair%%=*} on MPI_COMM_WORLD was not served by ${pair#*=} (the tuning file)"
done
tuned=0
[ -z "$tuning" ] || tuned=1
n=$(count "^vine: tuning file .+: [0-9]+ rules\$")
[ "$n" -eq "$tuned" ] || problem "$n 'tuning file' lines, want $tuned"
n=$(count "^vine: levels of MPI_COMM_WORLD \\(p=$np\\): ")
[ "$n" -eq 1 ] || problem "$n 'levels of MPI_COMM_WORLD' lines, want 1"
# Nothing but the documented kinds of line.
others=$(grep '^vine: ' "$err" |
    grep -cvE '^vine: ([a-z_]+ on .+ \(p=[0-9]+\) (served by .+|passed to MPI \(.+\))|levels of .+ \(p=[0-9]+\): .+|shared memory \(p=[0-9]+\): .+|tuning file .+: [0-9]+ rules)$')
[ "$others" -eq 0 ] || problem "$others other 'vine:' lines on stderr"
exit $fail
