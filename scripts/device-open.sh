#!/bin/sh
# What issues 19, 20, 22 and 23 still lack, in one run on a 16-core machine.
# PARTS names the parts to run, in order (default "nb threads v torus", the
# run of 2026-11-27); each is skipped when less of BUDGET seconds is left
# than it takes:
#
#   nb       scripts/device-nb.sh, stage old: the blocking 8-byte allreduce
#            (vine-bench overhead) of OLD (a source tree before issue 22) and
#            of this tree, alternately, in four pairs (issue 22)
#   threads  the threaded test (tests/mpi/test_threads.c, MPI_THREAD_MULTIPLE,
#            each thread on its own communicator) as ranks x threads = 2x1,
#            2x8, 4x4, 8x2 and 16x1 (2x1 and 2x8 on 8 cores per rank, the
#            others on as many cores as threads), and 2x8 through the
#            preloaded libvine-mpi.so: checks per second (issue 22)
#   v        scripts/device-v.sh, stages tune small large skew, with
#            vine-tune's file for allgatherv and the scans; skew for gatherv
#            and scatterv only (issue 20)
#   torus    the torus algorithms against the flat Bine, on 16 ranks as one
#            dimension and on a pretend 4 x 4 torus (four pretend hosts of
#            four ranks), every cell checked (issue 23)
#   tag      allgather bine_torus (its small lines through bine_permute since
#            2026-11-27) beside bine_permute, bine_block and the MPI library,
#            8 B to 64 KiB blocks, 300 iterations, as one dimension of NP and
#            on the pretend 4 x 4 torus, every cell checked (issue 23)
#   mt       vine-bench overhead at MPI_THREAD_MULTIPLE (VINE_PROGRESS_THREAD=1
#            makes vine-bench ask for it) and at the default level,
#            alternately, twice each: what the thread-safe path costs a single
#            thread (issue 22)
#   vrep     alltoallv, alltoallw, gatherv and scatterv, mpi, auto and linear,
#            8 B to 32 KiB with 2000 iterations, three runs; alltoallv and
#            alltoallw at 2 and 16 MiB with 30 iterations, twice (issue 20)
#   zipf     scripts/device-v.sh, stage zipf (issue 20)
#   nbhalf   scripts/device-nb.sh, stage thread_half: 8 ranks, a free core for
#            each progress thread (issue 19)
#   persist  persistent against blocking (vine-bench coll --persistent), five
#            collectives, mpi, auto and the point-to-point algorithms bine,
#            bine_large, bine_permute and recursive_doubling, 8 B to 4 KiB,
#            2000 iterations, of OLD's tree (before the persistent
#            point-to-point requests: git archive 77c092a) and of this one
#            alternately, twice each; this tree alone without OLD (issue 19)
#   nbv      the nonblocking irregular collectives and scans (vine-bench coll
#            --nonblocking --check): allgatherv, alltoallv, gatherv and scan,
#            mpi and auto, 64 KiB and 1 MiB blocks, 200 iterations, on half
#            the cores' ranks, two cores each, with VINE_PROGRESS_THREAD=1 (a
#            free core for each thread), then the same on every core without
#            the thread (issues 19 and 20)
#   small    the small reductions (allreduce, reduce_scatter,
#            reduce_scatter_block, reduce, bcast at 8 B to 4 KiB), mpi, shm and
#            auto, 3000 iterations, of OLD's tree and of this one alternately,
#            twice each (issues 17 and 18: the small-data protocol)
#   eager    the calls the eager slots serve (bcast, gather, scatter,
#            allgather, alltoall, reduce at 8 B to 4 KiB), mpi, shm and auto,
#            3000 iterations, of OLD_EAG's tree (before the eager slots: git
#            archive b7cd84a) and of this one alternately, twice each (issue
#            18; vine-bench times the slowest rank, so a gather's non-roots
#            that now leave early show only under OSU's average)
#
# Results: $OUT/nb/nb.tgz, $OUT/v/v.tgz and $OUT/open.tgz (the rest).
#
#   sh scripts/device-deps.sh                                       # here
#   git archive ef61c18 | (mkdir -p build-old-src && tar -x -C build-old-src)
#   OUT=$OUT BUDGET=530 sh scripts/device-open.sh   # there; carry build-devdeps
#                                                   # and build-old-src
#
# Variables: OUT (default results/open-DATE-TIME), PARTS, OLD (default
# build-old-src), OLD_EAG (default build-old-eag-src), BUILD (default build-nb), NP (default: every core), BUDGET
# (seconds, default 520), QUICK=1 (tiny sizes, to try the script on a small
# machine).
# $bind is split into words on purpose.
# shellcheck disable=SC2086
set -eu
cd "$(dirname "$0")/.."
t0=$(date +%s)
. scripts/device-env.sh
export BUILD=${BUILD:-build-nb}
OUT=${OUT:-results/open-$(date +%Y%m%d-%H%M%S)}
OLD=${OLD:-build-old-src}
OLD_EAG=${OLD_EAG:-build-old-eag-src}
PARTS=${PARTS:-nb threads v torus}
cores=$(nproc)
NP=${NP:-$cores}
BUDGET=${BUDGET:-520}
QUICK=${QUICK:-0}
mkdir -p "$OUT/open"
ROOT=$(cd "$OUT" && pwd)
OUT=$ROOT/open
if [ "$QUICK" = 1 ]; then
    export OMPI_MCA_rmaps_base_oversubscribe=1
    bind="--bind-to none"
    tsizes=8B,1KiB tbig=4KiB tit=10 tit_big=3 titers=2 tune=10
    vsizes=8B,4KiB vbig=16KiB vit=20 vit_big=3 oargs="--batches 3 --iters 100" sit=20
    gsizes=8B,1KiB git=10 psizes=8B,1KiB pit=20 nsizes=1KiB,4KiB nit=10
else
    export OMPI_MCA_rmaps_base_oversubscribe=0
    bind="--bind-to core"
    tsizes=8B,1KiB,64KiB,1MiB tbig=16MiB tit=100 tit_big=5 titers=24 tune=60
    vsizes=8B,64B,512B,4KiB,32KiB vbig=2MiB,16MiB vit=2000 vit_big=30 oargs='' sit=3000
    gsizes=8B,64B,1KiB,4KiB,16KiB,64KiB git=300
    psizes=8B,512B,4KiB pit=2000 nsizes=64KiB,1MiB nit=200
fi
left() { echo $((BUDGET - ($(date +%s) - t0))); }
at_most() { # the budget left, at most $1 seconds
    l=$(left)
    echo $((l < $1 ? l : $1))
}
. scripts/device-stages.sh
BENCH=$BUILD/bin/vine-bench

threads() {
    built && cmake --build "$BUILD" -j "$cores" --target vine vine-mpi || return
    lib=$(cd "$BUILD/lib" && pwd)
    mpicc -O2 -Iinclude tests/mpi/test_threads.c -o "$BUILD/threads_test" -L"$lib" -lvine \
        -lpthread -Wl,-rpath,"$lib" || return
    mpicc -O2 -DTEST_THREADS_MPI tests/mpi/test_threads.c -o "$BUILD/threads_test_mpi" \
        -lpthread -ldl || return
    for c in 2x1x8 2x8x8 4x4x4 8x2x2 16x1x1; do # ranks x threads x cores per rank
        r=${c%%x*} t=${c#*x} pe=${c##*x}
        t=${t%x*} map="--map-by ppr:$r:node:pe=$pe"
        [ "$QUICK" = 1 ] && r=$((r > 4 ? 4 : r)) map=
        echo "== $r ranks x $t threads"
        VINE_TEST_THREADS=$t VINE_TEST_THREADS_ITERS=$titers \
            mpirun_np "$r" ${map:-$bind} "$BUILD/threads_test" || return
    done
    echo "== 2 ranks x 8 threads, preloaded"
    [ "$QUICK" = 1 ] || map="--map-by ppr:2:node:pe=8"
    mpirun_np 2 ${map:-$bind} -x VINE_TEST_THREADS=8 \
        -x VINE_TEST_THREADS_ITERS=$titers -x LD_PRELOAD="$lib/libvine-mpi.so" \
        "$BUILD/threads_test_mpi"
}

nbv_run() { # json name, ranks, then mpirun options
    json=$1 n=$2
    shift 2
    mpirun_np "$n" "$@" "$BENCH" coll --nonblocking --check \
        --coll allgatherv,alltoallv,gatherv,scan --algo mpi,auto --size "$nsizes" \
        --iters "$nit" --json "$OUT/$json.json"
}

nbv() {
    half=$((NP > 1 ? NP / 2 : 1)) map=$bind
    [ "$QUICK" = 1 ] || map="--map-by ppr:$half:node:pe=2"
    nbv_run nbv-thread "$half" $map -x VINE_PROGRESS_THREAD=1 || return
    nbv_run nbv "$NP" $bind
}

torus_runs() { # json name, then mpirun options
    json=$1
    shift
    set -- "$@" "$BENCH" coll --check \
        --coll allreduce,reduce_scatter_block,allgather,bcast,reduce \
        --algo bine_large,bine_block,bine_permute,bine,bucket,swing,bine_torus,bine_torus_multiport,mpi
    mpirun_np "$NP" $bind "$@" --size "$tsizes" --iters "$tit" --json "$OUT/$json.json" || return
    mpirun_np "$NP" $bind "$@" --size "$tbig" --iters "$tit_big" --json "$OUT/$json-big.json"
}

torus() {
    torus_runs torus-flat || return
    torus_runs torus-4x4 -x VINE_TOPOLOGY_FAKE_HOSTS=block:4
}

tag() {
    for h in flat 4x4; do
        set --
        [ "$h" = 4x4 ] && set -- -x VINE_TOPOLOGY_FAKE_HOSTS=block:4
        mpirun_np "$NP" $bind "$@" "$BENCH" coll --check --coll allgather \
            --algo bine_torus,bine_permute,bine_block,mpi --size "$gsizes" --iters "$git" \
            --json "$OUT/tag-$h.json" || return
    done
}

mt() {
    for i in 1 2; do
        echo "== default thread level"
        mpirun_np "$NP" $bind "$BENCH" overhead $oargs || return
        echo "== MPI_THREAD_MULTIPLE"
        mpirun_np "$NP" $bind -x VINE_PROGRESS_THREAD=1 "$BENCH" overhead $oargs || return
    done
}

vrep() {
    for i in 1 2 3; do
        mpirun_np "$NP" $bind "$BENCH" coll --check --coll alltoallv,alltoallw,gatherv,scatterv \
            --algo mpi,auto,linear --size "$vsizes" --iters "$vit" --json "$OUT/vrep-$i.json" ||
            return
    done
    for i in 1 2; do
        mpirun_np "$NP" $bind "$BENCH" coll --check --coll alltoallv,alltoallw \
            --algo mpi,auto,pairwise --size "$vbig" --iters "$vit_big" \
            --json "$OUT/vrep-big-$i.json" || return
    done
}

small_bench() { # json name, build dir, collectives: 8 B to 4 KiB, mpi, shm and auto
    mpirun_np "$NP" $bind "$2/bin/vine-bench" coll --check --coll "$3" --algo mpi,shm,auto \
        --size 8B,64B,512B,4KiB --iters "$sit" --json "$OUT/$1.json"
}

small_runs() { # json name, build dir
    small_bench "$1" "$2" allreduce,reduce_scatter,reduce_scatter_block,reduce,bcast
}

old_built() { # OLD's vine-bench in $BUILD-old, built when missing
    [ -x "$BUILD-old/bin/vine-bench" ] && return
    [ -d "$OLD" ] || { echo "no OLD tree"; return 1; }
    cmake -S "$OLD" -B "$BUILD-old" -DCMAKE_BUILD_TYPE=Release -DVINE_TESTS=OFF \
        -DVINE_WERROR=OFF && cmake --build "$BUILD-old" -j "$cores" --target vine-bench
}

alternate() { # runner, name, the old build: its runs and this tree's in turn, twice each
    for i in 1 2; do
        if [ "$i" = 1 ]; then
            "$1" "$2-old-$i" "$3" && "$1" "$2-new-$i" "$BUILD" || return
        else
            "$1" "$2-new-$i" "$BUILD" && "$1" "$2-old-$i" "$3" || return
        fi
    done
}

eager_runs() { # json name, build dir
    small_bench "$1" "$2" bcast,gather,scatter,allgather,alltoall,reduce
}

eager() { # OLD_EAG's vine-bench in $BUILD-old-eag, built when missing
    if [ ! -x "$BUILD-old-eag/bin/vine-bench" ]; then
        [ -d "$OLD_EAG" ] || { echo "no OLD_EAG tree"; return 1; }
        cmake -S "$OLD_EAG" -B "$BUILD-old-eag" -DCMAKE_BUILD_TYPE=Release -DVINE_TESTS=OFF \
            -DVINE_WERROR=OFF && cmake --build "$BUILD-old-eag" -j "$cores" --target vine-bench ||
            return
    fi
    alternate eager_runs eager "$BUILD-old-eag"
}

small() {
    old_built || return
    alternate small_runs small "$BUILD-old"
}

persist_runs() { # json name, build dir
    mpirun_np "$NP" $bind "$2/bin/vine-bench" coll --persistent --check \
        --coll allreduce,bcast,allgather,alltoall,reduce_scatter_block \
        --algo mpi,auto,bine,bine_large,bine_permute,recursive_doubling --size "$psizes" \
        --iters "$pit" --json "$OUT/$1.json"
}

persist() {
    old_built || { persist_runs persist-new-1 "$BUILD"; return; }
    alternate persist_runs persist "$BUILD-old"
}

built() {
    [ -x "$BENCH" ] && return
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DVINE_TESTS=OFF -DVINE_WERROR=OFF &&
        cmake --build "$BUILD" -j "$cores" --target vine-bench
}

for part in $PARTS; do
    case $part in
    nb) # before and after issue 22 (it builds this tree and OLD's, half the cores each)
        mkdir -p "$ROOT/nb"
        OUT=$ROOT/nb OLD=$OLD NP=$NP STAGES=old BUDGET=$(at_most 170) \
            sh scripts/device-nb.sh || echo "device-open.sh: device-nb.sh failed" ;;
    nbhalf)
        mkdir -p "$ROOT/nb"
        OUT=$ROOT/nb NP=$NP STAGES=thread_half BUDGET=$(at_most 200) \
            sh scripts/device-nb.sh || echo "device-open.sh: device-nb.sh failed" ;;
    persist) stage build 90 built && stage persist 120 persist ;;
    nbv) stage build 90 built && stage nbv 90 nbv ;;
    v | zipf)
        mkdir -p "$ROOT/v"
        if [ "$part" = v ]; then
            set -- STAGES="small large skew" SKEW_COLLS=gatherv,scatterv TUNE_BUDGET=$tune
        else
            set -- STAGES=zipf
        fi
        if [ "$(left)" -gt 120 ]; then
            env "$@" OUT="$ROOT/v" NP="$NP" BUDGET=$(($(left) - 30)) sh scripts/device-v.sh ||
                echo "device-open.sh: device-v.sh failed" | tee -a "$OUT/stages.txt"
        else
            echo "$part: skipped, $(left) s of the budget left" | tee -a "$OUT/stages.txt"
        fi ;;
    threads) stage threads 40 threads ;;
    torus) stage build 90 built && stage torus 60 torus ;;
    tag) stage build 90 built && stage tag 30 tag ;;
    mt) stage build 90 built && stage mt 70 mt ;;
    vrep) stage build 90 built && stage vrep 90 vrep ;;
    small) stage build 90 built && stage small 80 small ;;
    eager) stage build 90 built && stage eager 150 eager ;;
    *) echo "device-open.sh: unknown part $part" | tee -a "$OUT/stages.txt" ;;
    esac
done
echo "device-open.sh: done in $(($(date +%s) - t0)) s"
(cd "$OUT" && tar czf "$ROOT/open.tgz" . && cd .. && rm -rf "$OUT")
