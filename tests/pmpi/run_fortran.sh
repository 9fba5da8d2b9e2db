#!/bin/sh
# Runs tests/pmpi/fortran.F90 (a Fortran MPI program) with libvine-mpi
# preloaded, VINE_VERBOSE=1, allreduce forced to ring and bcast to binomial
# (so that the requests are vine's own schedules), and checks, besides its
# exit status and its "fortran: ok", who served its calls:
# - both MPIs: the seventeen blocking collectives on fortran_all (mpi_f08)
#   were vine's, one 'served by' line each, but MPI_Barrier under MPICH,
#   whose mpi_f08 calls PMPI_Barrier; so were the ten collectives of
#   fortran_req ("use mpi": nonblocking ones, completed by every completion
#   call, beside point-to-point requests), the blocking bcast on
#   fortran_legacy ("use mpi") and fortran_f08, and the nonblocking and
#   persistent allreduce on fortran_legacy (ring); MPI_Ialltoallw on the
#   intercommunicator fortran_inter was passed to MPI (one line).
# - mpich: its mpi_f08 bindings complete requests through PMPI_Wait, so the
#   nonblocking and persistent starts on fortran_f08 must have been passed
#   to MPI, one line each for allreduce and bcast.
# - openmpi: libvine-mpi defines Open MPI's Fortran entry points
#   (src/pmpi/fortran.c), mpi_f08's included: the allreduce on fortran_f08
#   was vine's ring too, and nothing else was passed to MPI.
#
# usage: run_fortran.sh --launcher CMD [--np-flag -np] --flavor openmpi|mpich
#                       --np N --preload LIB[:LIB...] -- APP
set -u

launcher='' np_flag=-np flavor='' np='' preload=''
while [ $# -gt 0 ]; do
    case $1 in
    --launcher) launcher=$2; shift 2 ;;
    --np-flag) np_flag=$2; shift 2 ;;
    --flavor) flavor=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --preload) preload=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "run_fortran.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
if [ -z "$launcher" ] || [ -z "$np" ] || [ -z "$preload" ] || [ $# -eq 0 ]; then
    echo "usage: run_fortran.sh --launcher CMD --flavor F --np N --preload L -- APP" >&2
    exit 2
fi

for v in $(env | sed -n 's/^\(VINE_[A-Z_]*\)=.*/\1/p'); do
    unset "$v"
done
preload="$preload${LD_PRELOAD:+:$LD_PRELOAD}"
case $flavor in
openmpi)
    env_args="-x VINE_VERBOSE=1 -x VINE_ALLREDUCE_ALGORITHM=ring -x VINE_BCAST_ALGORITHM=binomial"
    env_args="$env_args -x LD_PRELOAD=$preload" ;;
mpich)
    env_args="-genv VINE_VERBOSE 1 -genv VINE_ALLREDUCE_ALGORITHM ring"
    env_args="$env_args -genv VINE_BCAST_ALGORITHM binomial -genv LD_PRELOAD $preload" ;;
*)
    echo "run_fortran.sh: --flavor must be openmpi or mpich" >&2; exit 2 ;;
esac

out=$(mktemp)
err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
# shellcheck disable=SC2086
$launcher "$np_flag" "$np" $env_args "$@" >"$out" 2>"$err"
rc=$?
cat "$out"
cat "$err" >&2

fail=0
problem() {
    echo "run_fortran.sh: $*" >&2
    fail=1
}
count() {
    grep -cE "$1" "$err"
}
[ "$rc" -eq 0 ] || problem "the program exited with status $rc"
grep -qx 'fortran: ok' "$out" || problem "no 'fortran: ok' from rank 0"
f08="passed to MPI \\(called from Fortran bindings that complete requests through PMPI_\\)\$"
blocking="bcast reduce allreduce reduce_scatter reduce_scatter_block allgather alltoall gather \
scatter barrier allgatherv alltoallv alltoallw gatherv scatterv scan exscan"
[ "$flavor" = mpich ] && blocking=$(echo "$blocking" | sed 's/ barrier//')
for coll in $blocking; do
    n=$(count "^vine: $coll on fortran_all \\(p=$np\\) served by ")
    [ "$n" -eq 1 ] || problem "$n lines of $coll on fortran_all served by vine, want 1"
done
n=$(count "^vine: .* on fortran_all .*passed to MPI")
[ "$n" -eq 0 ] || problem "$n calls on fortran_all were passed to MPI"
for coll in allreduce bcast allgather alltoall alltoallw scan reduce exscan barrier gatherv; do
    n=$(count "^vine: $coll on fortran_req \\(p=$np\\) served by ")
    [ "$n" -eq 1 ] || problem "$n lines of $coll on fortran_req served by vine, want 1"
done
n=$(count "^vine: .* on fortran_req .*passed to MPI")
[ "$n" -eq 0 ] || problem "$n calls on fortran_req were passed to MPI"
inter=0
[ "$np" -gt 1 ] && inter=1
n=$(count "^vine: alltoallw on fortran_inter \\(p=$np\\) passed to MPI \\(intercommunicator\\)\$")
[ "$n" -eq "$inter" ] || problem "$n lines of alltoallw on fortran_inter passed to MPI, want $inter"
for comm in fortran_legacy fortran_f08; do
    n=$(count "^vine: bcast on $comm \\(p=$np\\) served by ")
    [ "$n" -eq 1 ] || problem "$n lines of the blocking bcast on $comm served by vine, want 1"
done
n=$(count "^vine: allreduce on fortran_legacy \\(p=$np\\) served by ring\$")
[ "$n" -eq 1 ] || problem "$n lines of allreduce on fortran_legacy served by ring, want 1"
n=$(count "^vine: .* on fortran_legacy .*passed to MPI")
[ "$n" -eq 0 ] || problem "$n calls on fortran_legacy were passed to MPI"
if [ "$flavor" = mpich ]; then
    for coll in allreduce bcast; do
        n=$(count "^vine: $coll on fortran_f08 \\(p=$np\\) $f08")
        [ "$n" -eq 1 ] || problem "$n lines of $coll on fortran_f08 passed to MPI as Fortran's, want 1"
    done
    n=$(count "^vine: allreduce on fortran_f08 .* served by ")
    [ "$n" -eq 0 ] || problem "an allreduce on fortran_f08 was served by vine"
else
    n=$(count "^vine: allreduce on fortran_f08 \\(p=$np\\) served by ring\$")
    [ "$n" -eq 1 ] || problem "$n lines of allreduce on fortran_f08 served by ring, want 1"
    n=$(count "^vine: .* passed to MPI")
    [ "$n" -eq "$inter" ] || problem "$n calls were passed to MPI, want $inter"
fi
exit $fail
