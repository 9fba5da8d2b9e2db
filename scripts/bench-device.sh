#!/bin/sh
# Every measurement that issues 4 and 7 still need from a 16-core machine, in
# one run that fits a short lease of the device machine: a description of the
# machine, a Release build, then stages in order of need, each writing its
# output (text and vine-bench result files) to $OUT as it goes, each skipped
# when less time is left of BUDGET seconds than it is expected to take:
#
#   machine     lscpu, NUMA nodes, caches, Open MPI's version, the bindings
#   build       cmake Release build of vine-bench into $BUILD
#   coll_small  every algorithm of every collective against the MPI library,
#               8 B and 64 KiB, checked (issue 7's table)
#   bine_a      scripts/bench-bine.sh on NP ranks (issue 4's table)
#   placement   reduce and allreduce at 16 MiB, Bine and classic, with ranks
#               bound core by core and interleaved over the cores (a rankfile):
#               do the two 16 MiB misses follow where the ranks sit?
#   bine_pN     scripts/bench-bine.sh on each of ODD_NPS (non-powers of two)
#   coll_large  as coll_small at 1 MiB, and at 16 MiB without alltoall and
#               reduce_scatter_block (whose 16 MiB blocks make 256 MiB vectors)
#   bine_b      bine_a again: a second run for the ranges
#   segment     allreduce bine_large with VINE_SEGMENT_SIZE 0, 256k and 1m
#
# $OUT/stages.txt says what ran, how long it took and how it ended.  Turn the
# result files into the tables of docs/performance.md with `vine table`
# (docs/bench.md), e.g. `vine table pairs --in OUT/bine-p16-a-1.json ...`.
#
# Where GLPK or jansson are missing and nothing can be installed (the device
# machine), pack them here first and carry the folder:
#
#   sh scripts/device-deps.sh                     # writes build-devdeps/
#   OUT=... sh scripts/bench-device.sh            # there, build-devdeps carried
#
# Variables: OUT (default results/device-DATE-TIME), NP (default: every
# core), ODD_NPS (default "12 15"), BUDGET (seconds, default 540: a stage
# starts only if its estimate fits, but may run past it, so leave the
# command's own limit a minute or more above BUDGET), BUILD
# (default build-node), QUICK=1 (tiny sizes and iterations, to try the
# script itself on a small machine).
# $bind (mpirun's binding options) is split into words on purpose.
# shellcheck disable=SC2086
set -eu
cd "$(dirname "$0")/.."
t0=$(date +%s)
. scripts/device-env.sh
BUILD=${BUILD:-build-node}
OUT=${OUT:-results/device-$(date +%Y%m%d-%H%M%S)}
cores=$(nproc)
NP=${NP:-$cores}
ODD_NPS=${ODD_NPS:-12 15}
BUDGET=${BUDGET:-540}
QUICK=${QUICK:-0}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
# Full-machine runs must not oversubscribe: Open MPI would make idle ranks
# yield.  QUICK runs may (they try the script, they measure nothing).
if [ "$QUICK" = 1 ]; then
    export OMPI_MCA_rmaps_base_oversubscribe=1
    bind="--bind-to none"
    small="8B" large="4KiB" iters_small=20 iters_large=5 seg_sizes="0 1k"
    bine_sizes="8B:20 4KiB:5" a2a_sizes="8B:20"
else
    export OMPI_MCA_rmaps_base_oversubscribe=0
    bind="--bind-to core"
    small="8B,64KiB" large="16MiB" iters_small=1000 iters_large=10 seg_sizes="0 256k 1m"
    bine_sizes="" a2a_sizes=""
fi
BENCH=$BUILD/bin/vine-bench

. scripts/device-stages.sh

machine() {
    uname -a
    echo "cores (nproc): $cores; ranks: $NP; $(mpirun --version 2>&1 | head -1)"
    lscpu || cat /proc/cpuinfo
    lscpu -e 2>/dev/null || true
    lscpu -C 2>/dev/null || true
    for n in /sys/devices/system/node/node*; do
        [ -e "$n/cpulist" ] && echo "$(basename "$n"): cpus $(cat "$n/cpulist")"
    done
    command -v numactl >/dev/null && numactl --hardware
    free -g 2>/dev/null || true
    ompi_info 2>/dev/null | grep -E 'MCA (btl|pml|coll|smsc)' || true
    mpirun_np "$NP" $bind --report-bindings true
}

# Warnings stay warnings here: another machine's compiler may warn where
# Debian 12's does not, and CI builds with -Werror anyway.
build() {
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DVINE_TESTS=OFF -DVINE_WERROR=OFF || return
    cmake --build "$BUILD" -j "$cores" --target vine-bench
}

coll_small() {
    mpirun_np "$NP" $bind "$BENCH" coll --coll all --algo all --size "$small" \
        --iters "$iters_small" --check --json "$OUT/coll-p$NP-small.json"
}

coll_large() {
    big=1MiB mid_iters=100
    [ "$QUICK" = 1 ] && big=1KiB mid_iters=5
    mpirun_np "$NP" $bind "$BENCH" coll --coll all --algo all --size "$big" \
        --iters "$mid_iters" --check --json "$OUT/coll-p$NP-1MiB.json" || return
    mpirun_np "$NP" $bind "$BENCH" coll \
        --coll bcast,reduce,allreduce,allgather,reduce_scatter,gather,scatter,barrier \
        --algo all --size "$large" --iters "$iters_large" --check --json "$OUT/coll-p$NP-large.json"
}

bine() { # ranks, tag
    json_dir=$OUT
    OUT='' NOBUILD=1 BUILD=$BUILD NP=$1 TAG=$2 JSON=$json_dir MPIRUN_ARGS=$bind SIZES=${bine_sizes:-8B:2000 64KiB:300 16MiB:20} \
        ALLTOALL_SIZES=${a2a_sizes:-8B:2000 64KiB:100 1MiB:20} sh scripts/bench-bine.sh
}

# Rank r on core (r % 2) * ceil(NP/2) + r / 2 (logical numbering): neighbouring
# ranks far apart, where --bind-to core puts them side by side.
placement() {
    size=16MiB iters=20
    [ "$QUICK" = 1 ] && size=4KiB iters=5
    half=$(((NP + 1) / 2)) r=0
    : >"$OUT/interleaved.rankfile"
    while [ "$r" -lt "$NP" ]; do
        echo "rank $r=localhost slot=$(((r % 2) * half + r / 2))" >>"$OUT/interleaved.rankfile"
        r=$((r + 1))
    done
    algos=mpi,binomial,bine,rabenseifner,bine_large
    mpirun_np "$NP" $bind --report-bindings "$BENCH" coll --coll reduce,allreduce \
        --algo "$algos" --size "$size" --iters "$iters" --check --json "$OUT/placement-core.json" || return
    mpirun_np "$NP" --rankfile "$OUT/interleaved.rankfile" --report-bindings "$BENCH" coll \
        --coll reduce,allreduce --algo "$algos" --size "$size" --iters "$iters" --check \
        --json "$OUT/placement-interleaved.json"
}

segment() {
    for seg in $seg_sizes; do
        VINE_SEGMENT_SIZE=$seg mpirun_np "$NP" $bind "$BENCH" coll \
            --coll allreduce --algo mpi,bine_large,rabenseifner \
            --size "$(if [ "$QUICK" = 1 ]; then echo 4KiB; else echo 1MiB,16MiB; fi)" \
            --iters "$(if [ "$QUICK" = 1 ]; then echo 5; else echo 30; fi)" --dtype float --check \
            --json "$OUT/segment-$seg.json" || return
    done
}

echo "bench-device.sh: results in $OUT, budget $BUDGET s"
stage machine 5 machine
stage build 60 build
if [ ! -x "$BENCH" ]; then
    echo "bench-device.sh: no $BENCH, nothing measured ($OUT/build.txt)" | tee -a "$OUT/stages.txt"
    exit 1
fi
stage coll_small 90 coll_small
stage bine_a 70 bine "$NP" a
stage placement 30 placement
for np in $ODD_NPS; do
    stage "bine_p$np" 70 bine "$np" odd
done
stage coll_large 100 coll_large
stage bine_b 70 bine "$NP" b
stage segment 40 segment
echo "bench-device.sh: done in $(($(date +%s) - t0)) s; $OUT/stages.txt"
