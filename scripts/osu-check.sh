#!/bin/sh
# Runs the collectives of the OSU Micro-Benchmarks (OMB 7.x, from
# mvapich.cse.ohio-state.edu, which vine does not ship) with their data
# validation (-c), on the MPI library alone and with libvine-mpi preloaded,
# and lists every run whose outcome differs: a held-out check of the drop-in
# library's blocking, nonblocking and (MPI-4 libraries) persistent
# collectives against a checker vine's authors did not write (docs/pmpi.md,
# "OSU Micro-Benchmarks").
#
#   OSU_SRC=/path/to/osu-micro-benchmarks sh scripts/osu-check.sh OUTDIR
#
# OSU_SRC is a tree with its configure script (a release tarball; a git
# checkout needs autoreconf first).  MPI=ompi (default: mpicc/mpirun,
# build/lib/libvine-mpi.so) or MPI=mpich (mpicc.mpich/mpiexec.mpich,
# build-mpich/lib: libvine-mpi.so with libvine_mpich_yield.so in both runs;
# MPICH's MPI-4 header adds the persistent benchmarks).  NPS (default
# "2 3 4 5") are the sizes; TYPES (default "mpi_char mpi_int mpi_float")
# the datatypes (OSU's -T); MSG (default 1:65536) the message sizes (-m);
# ITERS (default 5) the iterations (-i); TEST_TIMEOUT (default 300) the
# limit of one run in seconds; VINE_LIB overrides the library preloaded.
# The VINE_ variables of the environment reach the ranks, as in
# imb-check.sh.
#
# Each benchmark runs with what its --help offers: validation (-c), each
# type (-T) and, where it has -l, out of place and in place; one that
# offers none of them (barrier) runs once per size.  Under Open MPI both
# runs set OMPI_MCA_op=^avx unless OP_AVX=1: Open MPI 4.1's AVX reduction
# kernels saturate a signed 8-bit sum that overflows (open-mpi/ompi#8045,
# "wontfix"), from 16 elements per MPI_Reduce_local call on, and OSU's
# MPI_CHAR sums overflow, so they fail alone and with vine at sizes that
# depend on how each cuts the vector.  An outcome is the exit status and
# the Pass/Fail OSU printed for each size.  Writes
# OUTDIR/<mpi>.<benchmark>.npN[.<type>][.inplace].{plain,vine}.log and
# OUTDIR/summary.txt; exits 1 when some outcome differs.
set -eu

out=${1:?usage: OSU_SRC=/path/to/osu-micro-benchmarks sh scripts/osu-check.sh OUTDIR}
src=${OSU_SRC:?OSU_SRC: an OSU Micro-Benchmarks source tree (configure in it)}
if [ ! -x "$src/configure" ] || [ ! -d "$src/c/mpi/collective" ]; then
    echo "osu-check.sh: no configure or c/mpi/collective in $src" >&2
    exit 1
fi
here=$(cd "$(dirname "$0")/.." && pwd)
name=osu-check.sh
# shellcheck source=scripts/held-out-mpi.sh
. "$here/scripts/held-out-mpi.sh"
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmo=${TEST_TIMEOUT:-300}
[ "$mpi" = ompi ] && [ "${OP_AVX:-0}" != 1 ] && export OMPI_MCA_op=^avx

# Build the collectives in a copy of the tree (OSU builds in place).
bld=$out/build-$mpi
if [ ! -d "$bld" ]; then
    cp -R "$src" "$bld.tmp"
    mv "$bld.tmp" "$bld"
fi
coll=$bld/c/mpi/collective
if [ ! -x "$coll/blocking/osu_bcast" ]; then
    (cd "$bld" && ./configure CC=$cc CXX=$cxx && make -C c/mpi/collective) \
        >"$out/build-$mpi.log" 2>&1 || {
        echo "osu-check.sh: building OSU failed: $out/build-$mpi.log" >&2
        exit 1
    }
fi

# One run: exit status and each size's Pass/Fail.
run() { # log np preload benchmark args...
    log=$1
    launch "$@"
    printf 'rc=%s' "$rc"
    grep -E '^[0-9]+ .*(Pass|Fail) *$' "$log" | awk '{printf " %s:%s", $1, $NF}'
    echo
}

summary=$out/summary.txt
: >"$summary"
for np in ${NPS:-2 3 4 5}; do
    for b in "$coll"/blocking/osu_* "$coll"/non_blocking/osu_* "$coll"/persistent/osu_*; do
        if [ ! -f "$b" ] || [ ! -x "$b" ]; then
            continue
        fi
        bench=$(basename "$b")
        help=$("$b" --help 2>&1 || true)
        vopt="" types="-" places="-"
        case $help in *"--validation "*) vopt=-c ;; esac
        case $help in *"--type "*) types=${TYPES:-mpi_char mpi_int mpi_float} ;; esac
        case $help in *"--in-place "*) places="- -l" ;; esac
        for t in $types; do
            for l in $places; do
                # shellcheck disable=SC2086
                set -- $vopt -m "${MSG:-1:65536}" -i "${ITERS:-5}" -x 1
                tag=$mpi.$bench.np$np
                [ "$t" != - ] && set -- "$@" -T "$t" && tag=$tag.$t
                [ "$l" != - ] && set -- "$@" -l && tag=$tag.inplace
                plain=$(run "$out/$tag.plain.log" "$np" "$base" "$b" "$@")
                vine=$(run "$out/$tag.vine.log" "$np" "$with" "$b" "$@")
                compare "$tag" "$plain" "$vine"
            done
        done
    done
done
verdict
