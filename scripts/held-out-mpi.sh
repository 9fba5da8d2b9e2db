# shellcheck shell=sh disable=SC2034,SC2154
# Sourced by the held-out checks (imb-check.sh, osu-check.sh), with name set
# to the caller's name and here to the repository root: the MPI library to
# run on, from MPI (ompi, the default, or mpich).  Sets mpi; lib, the vine
# library preloaded (VINE_LIB, a list with libasan first for the sanitizer
# build, or the build's libvine-mpi.so); base, what both runs preload
# (MPICH's libvine_mpich_yield.so, for oversubscribed runs); with, what the
# run with vine preloads; cc and cxx, the compilers.  Exits when the library
# is missing.  Lets Open MPI's launcher run as root.
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
