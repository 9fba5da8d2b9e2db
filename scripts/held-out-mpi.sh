# shellcheck shell=sh disable=SC2034,SC2154
# Sourced by the held-out checks (imb-check.sh, osu-check.sh,
# mpi4py-testsuite.sh, scalapack-check.sh), with name set to the caller's
# name and here to the repository root: the MPI library to run on, from MPI
# (ompi, the default, or mpich).  Sets mpi; lib, the vine
# library preloaded (VINE_LIB, a list with libasan first for the sanitizer
# build, or the build's libvine-mpi.so); base, what both runs preload
# (MPICH's libvine_mpich_yield.so, for oversubscribed runs); with, what the
# run with vine preloads; cc and cxx, the compilers.  Exits when the library
# is missing.  Lets Open MPI's launcher run as root.  Defines launch, which
# runs a program on that library's launcher, and compare and verdict, which
# keep the summary of the runs alone and with vine.
mpi=${MPI:-ompi}
case $mpi in
ompi)
    lib=${VINE_LIB:-$here/build/lib/libvine-mpi.so}
    base=""
    cc=mpicc cxx=mpicxx
    ;;
mpich)
    lib=${VINE_LIB:-$here/build-mpich/lib/libvine-mpi.so}
    base=$here/build-mpich/lib/libvine_mpich_yield.so
    cc=mpicc.mpich cxx=mpicxx.mpich
    ;;
*)
    echo "$name: MPI is ompi or mpich" >&2
    exit 1
    ;;
esac
if [ ! -f "${lib##*:}" ]; then
    echo "$name: $lib is missing: build vine first" >&2
    exit 1
fi
with=$lib
[ -n "$base" ] && with=$base:$lib
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

# launch LOG NP PRELOAD COMMAND...: runs COMMAND on NP ranks (oversubscribed
# under Open MPI) with PRELOAD (a list, or empty) in LD_PRELOAD, for at most
# $tmo seconds, its output in LOG and no input; sets rc to its exit status.
launch() {
    _log=$1 _np=$2 _pre=$3
    shift 3
    rc=0
    if [ "$mpi" = mpich ]; then
        timeout "$tmo" mpiexec.mpich -np "$_np" -genv LD_PRELOAD "$_pre" "$@" \
            >"$_log" 2>&1 </dev/null || rc=$?
    elif [ -n "$_pre" ]; then
        timeout "$tmo" mpirun --oversubscribe -np "$_np" -x LD_PRELOAD="$_pre" "$@" \
            >"$_log" 2>&1 </dev/null || rc=$?
    else
        timeout "$tmo" mpirun --oversubscribe -np "$_np" "$@" >"$_log" 2>&1 </dev/null || rc=$?
    fi
}

# compare TAG ALONE WITH: one more run (nruns), its two outcomes in $summary,
# with "differs" (counted in ndiff) when they are not the same.
nruns=0 ndiff=0
compare() {
    nruns=$((nruns + 1))
    if [ "$2" != "$3" ]; then
        ndiff=$((ndiff + 1))
        printf '%s differs\n  alone: %s\n  vine:  %s\n' "$1" "$2" "$3" | tee -a "$summary"
    else
        echo "$1 same: $2" >>"$summary"
    fi
}

# verdict: the count of runs and of those that differ; fails when some did.
verdict() {
    echo "$name: $nruns runs, $ndiff with an outcome that differs ($summary)"
    [ "$ndiff" -eq 0 ]
}
