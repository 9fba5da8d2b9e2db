#!/bin/sh
# Issue 20's measurements in one run on a 16-core machine: the seven
# irregular collectives and the scans, every algorithm, auto and the MPI
# library's own side by side in each vine-bench run.  Every stage writes to
# $OUT as it goes and is skipped when less of BUDGET seconds is left than it
# is expected to take:
#
#   build    cmake Release build of vine-bench and vine-tune (quick when BUILD
#            is built)
#   machine  nproc, the MPI library, the bindings
#   tune     (only when TUNE_BUDGET is set) vine-tune --coll
#            allgatherv,scan,exscan --ranks NP --budget TUNE_BUDGET: the
#            collectives of the seven that vine-tune can measure; the stages
#            after it run with VINE_TUNING_FILE set to the file it wrote
#   small    uniform blocks 8 B to 256 KiB per rank (every 8x), all seven
#   large    uniform blocks of 2 MiB and 16 MiB per rank, all seven
#   skew     one rank's blocks 10x the others', blocks of 4 to 131,072 ints
#            (16 B to 512 KiB, every 8x), the five v collectives (SKEW_COLLS
#            names fewer)
#   skew_large  the same with blocks of 1,048,576 ints (4 MiB), 10 iterations
#   zipf     Zipf-distributed blocks (s = 1.2) as skew's sizes, the five v
#            collectives
#
# At the end everything is packed into $OUT/v.tgz and the loose files are
# removed (the device tool brings back a few files only).  Print the tables
# here with `vine table best --in small.json` and the like (docs/bench.md).
#
# Variables: OUT (default results/v-DATE-TIME), STAGES (default "small skew
# zipf large skew_large"), NP (default: every core), BUDGET (seconds, default 300), BUILD
# (default build-nb), TUNE_BUDGET (seconds; unset: no tune stage), SKEW_COLLS,
# QUICK=1 (tiny sizes, to try the script on a small machine).
# $bind is split into words on purpose.
# shellcheck disable=SC2086
set -eu
cd "$(dirname "$0")/.."
t0=$(date +%s)
. scripts/device-env.sh
BUILD=${BUILD:-build-nb}
OUT=${OUT:-results/v-$(date +%Y%m%d-%H%M%S)}
cores=$(nproc)
NP=${NP:-$cores}
BUDGET=${BUDGET:-300}
QUICK=${QUICK:-0}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
if [ "$QUICK" = 1 ]; then
    export OMPI_MCA_rmaps_base_oversubscribe=1
    bind="--bind-to none"
    small=8B,4KiB large=64KiB dist=2,16 dist_big=64 it=10 it_big=3 max=16KiB
else
    export OMPI_MCA_rmaps_base_oversubscribe=0
    bind="--bind-to core"
    small=8B,64B,512B,4KiB,32KiB,256KiB large=2MiB,16MiB dist=4,32,256,2048,16384,131072
    dist_big=1048576
    it=100 it_big=10 max=16MiB
fi
BENCH=$BUILD/bin/vine-bench

. scripts/device-stages.sh

build() {
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DVINE_TESTS=OFF -DVINE_WERROR=OFF ||
        return
    cmake --build "$BUILD" -j "$cores" --target vine-bench vine-tune
}

tune() {
    mpirun_np "$NP" $bind "$BUILD/bin/vine-tune" --coll allgatherv,scan,exscan --ranks "$NP" \
        --max-size "$max" --budget "$TUNE_BUDGET" --out "$OUT/tuning-v.json"
}

machine() {
    uname -a
    echo "cores (nproc): $cores; ranks: $NP; $(mpirun --version 2>&1 | head -1)"
    mpirun_np "$NP" $bind --report-bindings "$BENCH" coll --coll barrier --algo mpi \
        --size 8B --iters 10
}

vb() { # json name, then vine-bench coll options
    json=$1
    shift
    mpirun_np "$NP" $bind "$BENCH" coll --check --json "$OUT/$json.json" --csv "$OUT/$json.csv" \
        --algo all "$@"
}

dists() { # distribution name, its parameter after the count, the counts
    for n in $(echo "$3" | tr , ' '); do
        printf ' --dist %s:%s%s' "$1" "$n" "$2"
    done
}

vcolls=${SKEW_COLLS:-allgatherv,alltoallv,alltoallw,gatherv,scatterv}
echo "device-v.sh: results in $OUT, budget $BUDGET s"
stage build 90 build
if [ ! -x "$BENCH" ]; then
    echo "device-v.sh: no $BENCH, nothing measured ($OUT/build.txt)" | tee -a "$OUT/stages.txt"
    exit 1
fi
stage machine 10 machine
if [ -n "${TUNE_BUDGET:-}" ]; then
    stage tune $((TUNE_BUDGET + 10)) tune
    if [ -s "$OUT/tuning-v.json" ]; then
        export VINE_TUNING_FILE="$OUT/tuning-v.json"
    else
        echo "tune: no tuning file; the stages run without one" | tee -a "$OUT/stages.txt"
    fi
fi
for st in ${STAGES:-small skew zipf large skew_large}; do
    case $st in
    small) stage small 30 vb small --coll v --size "$small" --iters "$it" ;;
    large) stage large 60 vb large --coll v --size "$large" --iters "$it_big" ;;
    skew) stage skew 60 vb skew --coll "$vcolls" $(dists skew ,10 "$dist") --iters "$it" ;;
    skew_large) stage skew_large 60 vb skew-large --coll "$vcolls" \
        $(dists skew ,10 "$dist_big") --iters "$it_big" ;;
    zipf) stage zipf 60 vb zipf --coll "$vcolls" $(dists zipf ,1.2 "$dist") --iters "$it" ;;
    *) echo "device-v.sh: unknown stage $st" | tee -a "$OUT/stages.txt" ;;
    esac
done
echo "device-v.sh: done in $(($(date +%s) - t0)) s; $OUT/stages.txt"
(cd "$OUT" && tar czf /tmp/device-v.tgz --exclude v.tgz . && find . -type f ! -name v.tgz -delete &&
    mv /tmp/device-v.tgz v.tgz)
