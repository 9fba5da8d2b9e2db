#!/bin/sh
# Issue 21, a first step: one collective of vine's on a simulated Dragonfly
# under SimGrid's smpirun, every algorithm asked for against SMPI's own
# selectors (mpich and ompi), in one smpirun per selector on the same
# platform and placement, so the times compare like for like (the network
# model is deterministic: computation is not simulated).
#
#   sh experiments/scale/run.sh                 allreduce, 256 ranks, 8 B-1 MiB
#   COLL=bcast NP=128 SIZES=8,1048576 sh experiments/scale/run.sh
#
# Steps: build libvine with smpicc into BUILD (Release, no tests) unless
# VINE_LIB names a libvine.so.N built already; build the driver
# scale_exp.c; write a host file of the platform's first NP hosts (block
# placement: ranks in host order, so a Dragonfly group holds consecutive
# ranks); run; print and keep the CSV lines in OUT/COLL-NP.csv:
#   selector,collective,algorithm,bytes,ranks,time_us,ran
# then (with VINE, default build/bin/vine) the same cases through `vine sim
# traffic` (OUT/COLL-NP-sim.csv) and compare.sh's table of the two
# (OUT/COLL-NP-compare.md).
#
# Settings (environment; defaults in brackets):
#   COLL [allreduce]  bcast, reduce, allreduce, allgather, reduce_scatter_block, alltoall
#   ALGOS [auto and every vine algorithm of COLL that `vine list` names, but
#          the hierarchical ones and mpi]   comma-separated
#   SIZES [8,1024,65536,1048576]   bytes (scale_exp.c: what a size means)
#   NP [256]  PLATFORM [dragonfly-1024.xml here: SimGrid's DRAGONFLY cluster,
#          8 groups of 4 chassis of 4 routers of 8 nodes, 12.5 GB/s, 1 us]
#   HOSTFILE [the hosts node-0 ... in order]  the platform's host names in host
#          order, e.g. from `vine sim export --topo lumi --simgrid lumi.xml
#          --hostfile lumi.hosts`; its first NP lines place the ranks
#   SELECTORS ["mpich ompi"]   BUILD [build-scale]  OUT [BUILD/run]  JOBS [2]
#   SIM_ARGS ["--lat-factor smpi --bw-factor smpi --clock rank"]  vine sim
#          traffic's time model, as in study.sh
#   vine's own settings pass through to the ranks, e.g. VINE_TOPOLOGY=torus:8x8x4
#   for SimGrid's TORUS cluster torus-256.xml (docs/scale.md: SimGrid numbers a
#   torus host's coordinates with the first dimension fastest)
#
# SimGrid 3.32's DRAGONFLY cluster crashes when a run spans more than four
# groups (../shared/measurements/2026-11-26-smpi/README.md): NP up to 512 on
# this platform.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
COLL=${COLL:-allreduce}
SIZES=${SIZES:-8,1024,65536,1048576}
NP=${NP:-256}
PLATFORM=${PLATFORM:-$here/dragonfly-1024.xml}
SELECTORS=${SELECTORS:-mpich ompi}
BUILD=${BUILD:-$src/build-scale}
OUT=${OUT:-$BUILD/run}
JOBS=${JOBS:-2}

if [ -z "${VINE_LIB:-}" ]; then
    cmake -S "$src" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DVINE_SMPI=ON -DVINE_TESTS=OFF \
        -DCMAKE_C_COMPILER=smpicc >"$BUILD.cmake.log" 2>&1 ||
        { echo "run.sh: cmake failed: $BUILD.cmake.log" >&2; exit 1; }
    cmake --build "$BUILD" -j "$JOBS" --target vine >>"$BUILD.cmake.log" 2>&1 ||
        { echo "run.sh: build failed: $BUILD.cmake.log" >&2; exit 1; }
    VINE_LIB=$(ls "$BUILD"/lib/libvine.so.[0-9] | head -1)
fi
mkdir -p "$OUT"
DRIVER=$OUT/scale_exp
smpicc -O2 -I"$src/include" "$here/scale_exp.c" -o "$DRIVER" -L"$(dirname "$VINE_LIB")" -lvine \
    -Wl,-rpath,"$(dirname "$VINE_LIB")"

if [ -z "${ALGOS:-}" ]; then
    VINE=${VINE:-$src/build/bin/vine}
    ALGOS=auto$("$VINE" list --coll "$COLL" 2>/dev/null |
        awk 'NR > 1 && $2 != "mpi" && $2 !~ /hier|leader|shm|bbs/ { printf ",%s", $2 }')
fi

hosts=$OUT/hosts-$NP.txt
if [ -n "${HOSTFILE:-}" ]; then
    head -n "$NP" "$HOSTFILE" >"$hosts"
else
    i=0
    : >"$hosts"
    while [ $i -lt "$NP" ]; do
        echo "node-$i" >>"$hosts"
        i=$((i + 1))
    done
fi

csv=$OUT/$COLL-$NP.csv
: >"$csv"
first=1
status=0
for sel in $SELECTORS; do
    algos=smpi
    [ $first = 1 ] && algos=$ALGOS,smpi
    first=0
    out=$OUT/$COLL-$NP-$sel.out
    smpirun -np "$NP" -platform "$PLATFORM" -hostfile "$hosts" \
        --cfg=smpi/privatize-libs:"$VINE_LIB" --cfg=smpi/simulate-computation:no \
        --cfg=smpi/auto-shared-malloc-thresh:65536 --cfg=smpi/coll-selector:"$sel" \
        --log=root.thres:critical \
        "$DRIVER" --coll "$COLL" --algos "$algos" --sizes "$SIZES" >"$out" \
        2>"$OUT/$COLL-$NP-$sel.log" ||
        { echo "run.sh: the $sel run failed: $OUT/$COLL-$NP-$sel.log" >&2; status=1; }
    sed "s/^/$sel,/" "$out" | tee -a "$csv"
done
VINE=${VINE:-$src/build/bin/vine}
SIM_ARGS=${SIM_ARGS---lat-factor smpi --bw-factor smpi --clock rank}
if [ -x "$VINE" ]; then
    # The same cases through vine's own simulator, then the comparison.
    "$VINE" sim traffic --topo "simgrid:$PLATFORM" --ranks "$NP" --coll "$COLL" --size "$SIZES" \
        --algo all --csv "$OUT/$COLL-$NP-sim.csv" $SIM_ARGS >"$OUT/$COLL-$NP-sim.txt" 2>&1 &&
        sh "$here/compare.sh" "$csv" "$OUT/$COLL-$NP-sim.csv" | tee "$OUT/$COLL-$NP-compare.md"
fi
echo "run.sh: $csv"
exit $status
