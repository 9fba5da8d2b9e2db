#!/bin/sh
# Issue 18's measurements in one run on a 16-core machine: the shm family
# against the MPI library, side by side in each vine-bench run, with the
# node's copy bandwidth measured in the same run (--copy-bw).  Every stage
# writes to $OUT as it goes and is skipped when less of BUDGET seconds is
# left than it is expected to take:
#
#   machine   nproc, caches, NUMA nodes, the MPI library, the bindings, ptrace scope
#   build     cmake Release build of vine-bench
#   small     vine-bench coll --coll all --algo mpi,shm,auto --size 8B,64KiB --copy-bw --check
#   large     the same at 1MiB and 16MiB (no alltoall and reduce_scatter_block at
#             16 MiB, whose blocks would make 256 MiB vectors)
#   copy      bcast, allgather, gather, scatter at 1MiB with VINE_SHM_SINGLE_COPY=0
#             (copy in, copy out), against the large stage's rows with single
#             copy where the kernel allows it (machine.txt says whether it does)
#   region    allreduce, reduce_scatter, reduce at 16MiB with VINE_SHM_BYTES
#             256KiB and 4MiB (the default is 1MiB)
#   sweep     mpi, shm and auto over sizes 8B..16MiB, every collective (not by
#             default: STAGES="sweep" runs it alone)
#   preload   (not by default) vine-bench --algo mpi at 8B, 4KiB, 64KiB, 1MiB, alone
#             and with libvine-mpi.so preloaded (auto): the drop-in
#   hier      allreduce hier_shm against hier_large and mpi at 64KiB, 1MiB and
#             16MiB on two pretend nodes of NP/2 ranks (VINE_TOPOLOGY_FAKE_HOSTS)
#   hier2     (not by default) bcast and reduce hier_shm, gather and scatter
#             leader_shm against their point-to-point hierarchical siblings and
#             mpi, the same pretend nodes, 8B, 64KiB and 1MiB
#   rs        (not by default) reduce_scatter and reduce_scatter_block, mpi and
#             shm from 8B to 4KiB of block (the small path)
#   overhead  (not by default) vine-bench overhead: the executor's cost over a
#             hand-written loop, and every collective served by mpi
#
# At the end everything is packed into $OUT/shm.tgz and the loose files are
# removed (the device tool brings back a few files only).
#
# Turn the result files into tables with `vine table pairs --in OUT/small.json
# --in OUT/large.json` (docs/bench.md).
#
# Where GLPK or jansson are missing (the device machine), carry them:
#   sh scripts/device-deps.sh            # here: writes build-devdeps/
#   OUT=$OUT sh scripts/device-shm.sh    # there, with build-devdeps carried
#
# Variables: OUT (default results/shm-DATE-TIME), STAGES (default "small large
# copy region hier"), NP (default: every core),
# BUDGET (seconds, default 500), BUILD (default build-shm), QUICK=1 (tiny
# sizes, to try the script on a small machine).
# $bind is split into words on purpose.
# shellcheck disable=SC2086
set -eu
cd "$(dirname "$0")/.."
t0=$(date +%s)
. scripts/device-env.sh
BUILD=${BUILD:-build-shm}
OUT=${OUT:-results/shm-$(date +%Y%m%d-%H%M%S)}
cores=$(nproc)
NP=${NP:-$cores}
BUDGET=${BUDGET:-500}
QUICK=${QUICK:-0}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
if [ "$QUICK" = 1 ]; then
    export OMPI_MCA_rmaps_base_oversubscribe=1
    bind="--bind-to none"
    small=8B,1KiB mid=4KiB big=16KiB it_small=20 it_mid=5 it_big=3 cbytes=1MiB
else
    export OMPI_MCA_rmaps_base_oversubscribe=0
    bind="--bind-to core"
    small=8B,64KiB mid=1MiB big=16MiB it_small=1000 it_mid=100 it_big=20 cbytes=256MiB
fi
BENCH=$BUILD/bin/vine-bench

. scripts/device-stages.sh

machine() {
    uname -a
    echo "cores (nproc): $cores; ranks: $NP; $(mpirun --version 2>&1 | head -1)"
    lscpu || true
    for n in /sys/devices/system/node/node*; do
        [ -e "$n/cpulist" ] && echo "$(basename "$n"): cpus $(cat "$n/cpulist")"
    done
    echo "ptrace_scope: $(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo none)"
    df -h /dev/shm 2>/dev/null || true
    VINE_VERBOSE=1 mpirun_np "$NP" $bind --report-bindings "$BENCH" coll --coll barrier \
        --algo shm --size 8B --iters 10
}

build() {
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DVINE_TESTS=OFF -DVINE_WERROR=OFF || return
    cmake --build "$BUILD" -j "$cores" --target vine-bench vine-mpi
}

bench() { # json name, then vine-bench coll options
    json=$1
    shift
    mpirun_np "$NP" $bind "$BENCH" coll --algo mpi,shm,auto --check --copy-bw \
        --copy-bytes "$cbytes" --json "$OUT/$json.json" "$@"
}

small() {
    bench small --coll all --size "$small" --iters "$it_small"
}

large() {
    bench mid --coll all --size "$mid" --iters "$it_mid" || return
    bench large --coll bcast,reduce,allreduce,allgather,reduce_scatter,gather,scatter \
        --size "$big" --iters "$it_big"
}

copy() {
    VINE_SHM_SINGLE_COPY=0 bench copy --coll bcast,allgather,gather,scatter,alltoall \
        --size "$mid" --iters "$it_mid"
}

region() {
    for r in 256KiB 4MiB; do
        VINE_SHM_BYTES=$r bench "region-$r" --coll allreduce,reduce_scatter,reduce \
            --size "$big" --iters "$it_big" || return
    done
}

# The selector's shm ranges (src/select/select.c): mpi, shm and auto side by
# side over sizes, every collective.
sweep() {
    if [ "$QUICK" = 1 ]; then
        bench sweep-small --coll all --size 8B,4KiB --iters 5
        return
    fi
    bench sweep-small --coll all --size 8B,256B,4KiB,32KiB,256KiB --iters 300 || return
    bench sweep-large --coll bcast,reduce,allreduce,reduce_scatter,gather,scatter \
        --size 2MiB,16MiB --iters 20 || return
    bench sweep-2m --coll allgather,alltoall,reduce_scatter_block --size 2MiB --iters 10
}

# The drop-in: vine-bench's plain MPI_<Coll> calls (--algo mpi), alone and
# with libvine-mpi.so preloaded (auto, no tuning file), one run after the other.
preload() {
    lib=$(cd "$BUILD/lib" && pwd)/libvine-mpi.so
    sizes=8B,4KiB,64KiB,1MiB
    [ "$QUICK" = 1 ] && sizes=8B,4KiB
    mpirun_np "$NP" $bind "$BENCH" coll --coll all --algo mpi --size "$sizes" \
        --iters "$it_mid" --json "$OUT/preload-off.json" || return
    mpirun_np "$NP" $bind -x LD_PRELOAD="$lib" "$BENCH" coll --coll all \
        --algo mpi --size "$sizes" --iters "$it_mid" --json "$OUT/preload-on.json"
}

hier() {
    VINE_TOPOLOGY_FAKE_HOSTS=block:$((NP / 2)) mpirun_np "$NP" $bind "$BENCH" coll \
        --coll allreduce --algo mpi,hier_shm,hier_large,shm,auto --check \
        --size "$(if [ "$QUICK" = 1 ]; then echo 1KiB; else echo 64KiB,1MiB,16MiB; fi)" \
        --iters "$it_mid" --json "$OUT/hier.json"
}

hier2() {
    sizes=8B,64KiB,1MiB
    [ "$QUICK" = 1 ] && sizes=1KiB
    VINE_TOPOLOGY_FAKE_HOSTS=block:$((NP / 2)) mpirun_np "$NP" $bind "$BENCH" coll \
        --coll bcast --algo mpi,hier_shm,hier,hier_large,auto --check --size "$sizes" \
        --iters "$it_mid" --json "$OUT/hier2-bcast.json" || return
    VINE_TOPOLOGY_FAKE_HOSTS=block:$((NP / 2)) mpirun_np "$NP" $bind "$BENCH" coll \
        --coll reduce --algo mpi,hier_shm,hier,hier_large,auto --check --size "$sizes" \
        --iters "$it_mid" --json "$OUT/hier2-reduce.json" || return
    VINE_TOPOLOGY_FAKE_HOSTS=block:$((NP / 2)) mpirun_np "$NP" $bind "$BENCH" coll \
        --coll gather,scatter --algo mpi,leader_shm,leader,leader_bine,auto --check \
        --size "$sizes" --iters "$it_mid" --json "$OUT/hier2-leader.json"
}

rs() {
    sizes=8B,64B,512B,1KiB,2KiB,4KiB
    [ "$QUICK" = 1 ] && sizes=8B,64B
    bench rs --coll reduce_scatter,reduce_scatter_block --size "$sizes" --iters "$it_small"
}

overhead() {
    mpirun_np "$NP" $bind "$BENCH" overhead $([ "$QUICK" = 1 ] && echo --batches 3 --iters 100)
}

echo "device-shm.sh: results in $OUT, budget $BUDGET s"
# STAGES: the stages to run after build and machine (default all but sweep).
STAGES=${STAGES:-small large copy region hier}
stage build 90 build
if [ ! -x "$BENCH" ]; then
    echo "device-shm.sh: no $BENCH, nothing measured ($OUT/build.txt)" | tee -a "$OUT/stages.txt"
    exit 1
fi
stage machine 10 machine
for st in $STAGES; do
    case $st in
    small) stage small 60 small ;;
    large) stage large 90 large ;;
    copy) stage copy 40 copy ;;
    region) stage region 60 region ;;
    hier) stage hier 40 hier ;;
    preload) stage preload 40 preload ;;
    sweep) stage sweep 120 sweep ;;
    hier2) stage hier2 40 hier2 ;;
    rs) stage rs 20 rs ;;
    overhead) stage overhead 15 overhead ;;
    *) echo "device-shm.sh: unknown stage $st" | tee -a "$OUT/stages.txt" ;;
    esac
done
echo "device-shm.sh: done in $(($(date +%s) - t0)) s; $OUT/stages.txt"
(cd "$OUT" && tar czf /tmp/device-shm.tgz --exclude shm.tgz . && find . -type f ! -name shm.tgz -delete &&
    mv /tmp/device-shm.tgz shm.tgz)
