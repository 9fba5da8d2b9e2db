#!/bin/sh
# Issue 19's measurements in one run on a 16-core machine: vine's nonblocking
# and persistent collectives against the MPI library's, side by side in each
# vine-bench run.  Every stage writes to $OUT as it goes and is skipped when
# less of BUDGET seconds is left than it is expected to take:
#
#   build     cmake Release build of vine-bench (and of OLD's, beside it)
#   machine   nproc, the MPI library, the bindings
#   overlap   vine-bench coll --nonblocking: allreduce, bcast, alltoall and
#             allgather, mpi and auto (and bine, ring for allreduce), 8 B to
#             16 MiB: pure, compute, overlapped time and the overlap, with
#             vine_progress every 10 us of compute and without
#   thread    the same with VINE_PROGRESS_THREAD=1 (one rank per core: the
#             thread shares its rank's core)
#   thread_half  the same on NP/2 ranks, each bound to two cores: a free core
#            for each thread
#   persist   vine-bench coll --persistent, 8 B to 64 KiB: persistent against
#             blocking, every collective, auto and mpi
#   overhead  vine-bench overhead, twice: the blocking 8 B allreduce through
#             vine, through MPI and as a hand-written loop
#   old       (only when OLD names a source tree of vine before issue 19,
#             e.g. `git archive 2df3463 | tar -x -C build-old-src`, carried)
#             vine-bench overhead of that tree and of this one, in four
#             pairs, each tree first in two: the blocking 8 B allreduce
#             before and after
#
# At the end everything is packed into $OUT/nb.tgz and the loose files are
# removed (the device tool brings back a few files only).
#
# Where GLPK or jansson are missing (the device machine), carry them:
#   sh scripts/device-deps.sh            # here: writes build-devdeps/
#   OUT=$OUT sh scripts/device-nb.sh     # there, with build-devdeps carried
#
# Variables: OUT (default results/nb-DATE-TIME), STAGES (default "overhead
# old overlap persist thread thread_half"), NP (default: every core), BUDGET (seconds,
# default 500), BUILD (default build-nb), OLD (a source tree, see above),
# QUICK=1 (tiny sizes, to try the script on a small machine).
# $bind is split into words on purpose.
# shellcheck disable=SC2086
set -eu
cd "$(dirname "$0")/.."
t0=$(date +%s)
. scripts/device-env.sh
BUILD=${BUILD:-build-nb}
OUT=${OUT:-results/nb-$(date +%Y%m%d-%H%M%S)}
OLD=${OLD:-}
cores=$(nproc)
NP=${NP:-$cores}
BUDGET=${BUDGET:-500}
QUICK=${QUICK:-0}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
if [ "$QUICK" = 1 ]; then
    export OMPI_MCA_rmaps_base_oversubscribe=1
    bind="--bind-to none"
    sizes=8B,4KiB big=16KiB it=10 it_big=3 psizes=8B
else
    export OMPI_MCA_rmaps_base_oversubscribe=0
    bind="--bind-to core"
    sizes=8B,64KiB,1MiB big=16MiB it=200 it_big=10 psizes=8B,1KiB,64KiB
fi
BENCH=$BUILD/bin/vine-bench

. scripts/device-stages.sh

machine() {
    uname -a
    echo "cores (nproc): $cores; ranks: $NP; $(mpirun --version 2>&1 | head -1)"
    lscpu || true
    mpirun_np "$NP" $bind --report-bindings "$BENCH" coll --coll barrier --algo mpi \
        --size 8B --iters 10
}

build_tree() { # source dir, build dir[, parallel jobs]
    cmake -S "$1" -B "$2" -DCMAKE_BUILD_TYPE=Release -DVINE_TESTS=OFF -DVINE_WERROR=OFF ||
        return
    cmake --build "$2" -j "${3:-$cores}" --target vine-bench
}

build() { # this tree, and beside it the OLD one, half the cores each
    if [ -n "$OLD" ] && [ -d "$OLD" ]; then
        half=$((cores > 1 ? cores / 2 : 1))
        build_tree "$OLD" "$BUILD-old" "$half" >"$OUT/old-build.txt" 2>&1 &
        old_pid=$!
        build_tree . "$BUILD" "$half" || return
        wait "$old_pid" || echo "the OLD tree did not build: $OUT/old-build.txt"
    else
        build_tree . "$BUILD"
    fi
}

nb() { # json name, then vine-bench coll options
    json=$1
    shift
    mpirun_np "$NP" $bind "$BENCH" coll --nonblocking --check --json "$OUT/$json.json" "$@"
}

overlap_runs() { # prefix of the json names
    nb "$1-allreduce" --coll allreduce --algo mpi,auto,bine,ring --size "$sizes,$big" \
        --iters "$it" || return
    nb "$1-bcast" --coll bcast --algo mpi,auto --size "$sizes,$big" --iters "$it" || return
    nb "$1-allgather" --coll allgather --algo mpi,auto --size "$sizes" --iters "$it" || return
    nb "$1-alltoall" --coll alltoall --algo mpi,auto --size "$sizes" --iters "$it"
}

overlap() {
    overlap_runs overlap
}

thread() {
    (export VINE_PROGRESS_THREAD=1 && overlap_runs thread)
}

thread_half() { # half the ranks, each bound to two cores: a free core for each progress thread
    # (--bind-to core would bind the rank and its thread to one core, as on 2026-11-27)
    (
        NP=$((NP > 1 ? NP / 2 : 1))
        [ "$QUICK" = 1 ] || bind="--map-by ppr:$NP:node:pe=2"
        export VINE_PROGRESS_THREAD=1 && overlap_runs thread-half
    )
}

persist() {
    mpirun_np "$NP" $bind "$BENCH" coll --persistent --check --coll all --algo mpi,auto \
        --size "$psizes" --iters 2000 --json "$OUT/persist.json"
}

overhead() {
    for i in 1 2; do
        mpirun_np "$NP" $bind "$BENCH" overhead $([ "$QUICK" = 1 ] && echo --batches 3 --iters 100) ||
            return
    done
}

old() {
    [ -n "$OLD" ] && [ -d "$OLD" ] || { echo "no OLD tree: skipped"; return 0; }
    [ -x "$BUILD-old/bin/vine-bench" ] ||
        build_tree "$OLD" "$BUILD-old" >>"$OUT/old-build.txt" 2>&1 || return
    for i in 1 2 3 4; do # the two trees in turn, each first in two of the pairs
        pair="$BUILD-old $BUILD"
        [ $((i % 2)) = 0 ] && pair="$BUILD $BUILD-old"
        for b in $pair; do
            echo "== $b"
            mpirun_np "$NP" $bind "$b/bin/vine-bench" overhead \
                $([ "$QUICK" = 1 ] && echo --batches 3 --iters 100) || return
        done
    done
}

echo "device-nb.sh: results in $OUT, budget $BUDGET s"
STAGES=${STAGES:-overhead old overlap persist thread thread_half}
stage build 90 build
if [ ! -x "$BENCH" ]; then
    echo "device-nb.sh: no $BENCH, nothing measured ($OUT/build.txt)" | tee -a "$OUT/stages.txt"
    exit 1
fi
stage machine 10 machine
for st in $STAGES; do
    case $st in
    overlap) stage overlap 200 overlap ;;
    thread) stage thread 200 thread ;;
    thread_half) stage thread_half 150 thread_half ;;
    persist) stage persist 40 persist ;;
    overhead) stage overhead 20 overhead ;;
    old) stage old 70 old ;;
    *) echo "device-nb.sh: unknown stage $st" | tee -a "$OUT/stages.txt" ;;
    esac
done
echo "device-nb.sh: done in $(($(date +%s) - t0)) s; $OUT/stages.txt"
(cd "$OUT" && tar czf /tmp/device-nb.tgz --exclude nb.tgz . && find . -type f ! -name nb.tgz -delete &&
    mv /tmp/device-nb.tgz nb.tgz)
