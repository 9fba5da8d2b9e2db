#!/bin/sh
# Runs the Intel MPI Benchmarks (IMB, github.com/intel/mpi-benchmarks, which
# vine does not ship) built with their result check (-DCHECK), on the MPI
# library alone and with libvine-mpi preloaded, and lists every run whose
# outcome differs: a held-out check of the drop-in library's blocking,
# nonblocking and (MPI-4 libraries) persistent collectives against a
# checker vine's authors did not write (docs/pmpi.md, "Intel MPI
# Benchmarks").
#
#   IMB_SRC=/path/to/mpi-benchmarks sh scripts/imb-check.sh OUTDIR
#
# MPI=ompi (default: mpicc/mpirun, build/lib/libvine-mpi.so; suites MPI1
# and NBC) or MPI=mpich (mpicc.mpich/mpiexec.mpich, build-mpich/lib:
# libvine-mpi.so with libvine_mpich_yield.so in both runs; suites MPI1, NBC
# and MPI4, the persistent collectives).  NPS (default "2 3 4 5 6 7 8") are
# the sizes; MODES (default "one multi") the modes below; MSGLOG (default
# 0:20) the message sizes as IMB's -msglog; IMB_ARGS more arguments to every
# run (e.g. "-thread_level multiple"); TEST_TIMEOUT (default 600) the limit
# of one run in seconds; VINE_LIB overrides the library preloaded (a list
# with libasan first for the sanitizer build).  The
# VINE_ variables of the environment reach the ranks (Open MPI's mpirun
# passes its environment on to local ranks, MPICH's hydra to all), so
# VINE_<COLL>_ALGORITHM runs the benchmarks on forced algorithms;
# REUSE_PLAIN=1 then takes the outcomes alone from OUTDIR/plain.txt of an
# earlier run, where it has them, instead of running them again.
#
# Each size runs every suite in two modes, alone and with vine: "one", all
# collectives on all ranks, and (from 4 ranks) "multi", IMB's -multi 0 mode
# with -npmin 2 (groups of 2, 4, ... ranks running the same collective at
# once on split communicators, the others waiting in MPI_Barrier) and the
# root moved every iteration (-root_shift on).  An outcome is the exit status, the benchmarks that ran
# and every (benchmark, size) for which some rank reported "Error": IMB
# prints the buffer it got and the one it expected.  Writes
# OUTDIR/<mpi>.<suite>.<mode>.npN.{plain,vine}.log, OUTDIR/plain.txt and
# OUTDIR/summary.txt.
set -eu

out=${1:?usage: IMB_SRC=/path/to/mpi-benchmarks sh scripts/imb-check.sh OUTDIR}
src=${IMB_SRC:?IMB_SRC: an Intel MPI Benchmarks source tree (src_c/IMB_chk_diff.c in it)}
[ -f "$src/src_c/IMB_chk_diff.c" ] || {
    echo "imb-check.sh: no $src/src_c/IMB_chk_diff.c" >&2
    exit 1
}
here=$(cd "$(dirname "$0")/.." && pwd)
name=imb-check.sh
# shellcheck source=scripts/held-out-mpi.sh
. "$here/scripts/held-out-mpi.sh"
suites="MPI1 NBC"
[ "$mpi" = mpich ] && suites="MPI1 NBC MPI4"
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmo=${TEST_TIMEOUT:-600}

# Build the suites with the check, in a copy of the tree (IMB builds in
# place).  -D*_SKIP_MPICXX: Open MPI's C++ header does not compile under
# IMB's -Werror with GCC 12, and IMB does not use it.
bld=$out/build-$mpi
if [ ! -d "$bld" ]; then
    cp -R "$src" "$bld.tmp"
    mv "$bld.tmp" "$bld"
fi
for s in $suites; do
    [ -x "$bld/IMB-$s" ] && continue
    make -C "$bld" "IMB-$s" CC=$cc CXX=$cxx \
        CPPFLAGS="-DCHECK -DOMPI_SKIP_MPICXX -DMPICH_SKIP_MPICXX" \
        >"$out/build-$mpi.$s.log" 2>&1 || {
        echo "imb-check.sh: building IMB-$s failed: $out/build-$mpi.$s.log" >&2
        exit 1
    }
done

# The collectives of each suite (IMB leaves some out by default).
colls() {
    case $1 in
    MPI1)
        echo Allgather Allgatherv Allreduce Alltoall Alltoallv Barrier Bcast \
            Gather Gatherv Reduce Reduce_scatter Reduce_scatter_block Scatter \
            Scatterv
        ;;
    NBC | MPI4)
        sfx=_persist
        [ "$1" = NBC ] && sfx=
        for c in allgather allgatherv allreduce alltoall alltoallv barrier \
            bcast gather gatherv reduce reduce_scatter scatter scatterv; do
            if [ "$1" = NBC ]; then
                n=I$c
            else
                n=$(echo "$c" | sed 's/^./\U&/')
            fi
            printf '%s%s %s%s_pure ' "$n" "$sfx" "$n" "$sfx"
        done
        echo
        ;;
    esac
}

# One run: exit status, benchmarks run, (benchmark, size) pairs in error.
run() { # log np preload suite mode
    log=$1
    args="-msglog ${MSGLOG:-0:20} -iter 8 -iter_policy off -time 10 ${IMB_ARGS:-}"
    if [ "$5" = one ]; then
        args="$args -npmin $2"
    else
        args="$args -npmin 2 -multi 0 -root_shift on"
    fi
    # shellcheck disable=SC2046,SC2086
    launch "$1" "$2" "$3" "$bld/IMB-$4" $args $(colls "$4")
    ran=$(grep -c '^# Benchmarking' "$log" || true)
    # "Ireduce_scatter_pure 4 8 16; ..." (the sizes of each benchmark).
    bad=$(sed -n 's/^[0-9]*: Error \([A-Za-z_]*\),size = \([0-9]*\),.*/\1 \2/p' "$log" |
        sort -u -k1,1 -k2,2n | awk '$1 != b { if (b != "") printf "; "; b = $1; printf "%s", b }
            { printf " %s", $2 }')
    san=$(grep -c 'ERROR: AddressSanitizer\|runtime error:' "$log" || true)
    [ "$san" = 0 ] && san="" || san=", $san sanitizer reports"
    echo "exit $rc, $ran benchmarks run, in error: ${bad:-none}$san"
}

: >"$out/summary.txt"
[ "${REUSE_PLAIN:-0}" = 1 ] || : >"$out/plain.txt"
touch "$out/plain.txt"
for np in ${NPS:-2 3 4 5 6 7 8}; do
    for s in $suites; do
        for mode in ${MODES:-one multi}; do
            # -multi needs at least 4 ranks to differ from "one".
            [ "$mode" = multi ] && [ "$np" -lt 4 ] && continue
            name=$mpi.$s.$mode.np$np
            a=$(sed -n "s/^$name: //p" "$out/plain.txt")
            if [ -z "$a" ]; then
                a=$(run "$out/$name.plain.log" "$np" "$base" "$s" "$mode")
                echo "$name: $a" >>"$out/plain.txt"
            fi
            b=$(run "$out/$name.vine.log" "$np" "$with" "$s" "$mode")
            {
                echo "$name alone: $a"
                echo "$name with vine: $b"
                # The same outcome but for the times.
                [ "$a" = "$b" ] || echo "$name DIFFERS"
            } >>"$out/summary.txt"
        done
    done
done
cat "$out/summary.txt"
