#!/bin/sh
# Issue 17's measurements in one run on a 16-core machine: a Release build,
# `vine-tune` on every core, then auto with the tuning file it wrote against
# the MPI library in one vine-bench run per size band, the call overhead, and
# the drop-in library (libvine-mpi.so) under vine-bench's plain MPI calls.
# Every stage writes to $OUT as it goes and is skipped when less of BUDGET
# seconds is left than it is expected to take:
#
#   machine   nproc, the MPI library, the bindings
#   build     cmake Release build of vine-tune, vine-bench, vine and libvine-mpi
#   tune      mpirun -np NP vine-tune --budget TUNE_BUDGET --max-size 16MiB
#             --ranks RANKS --out $OUT/tuning.json (RANKS defaults to NP: the
#             whole budget on the communicator the later stages measure;
#             RANKS=all leaves --ranks out, so vine-tune also measures its
#             sub-communicator sizes NP/2 ... 2 and NP-1)
#   small     VINE_TUNING_FILE=tuning.json vine-bench coll --coll all --algo auto
#             --size 8B..64KiB, checked: auto/mpi per cell (the mpi row comes first)
#   large     the same from 128KiB to 16MiB
#   overhead  vine-bench overhead: what vine adds to an 8-byte allreduce, and
#             the tuning lookup's cost
#   preload   vine-bench coll --algo mpi (plain MPI_<Coll> calls) twice at
#             the same sizes, alone and with libvine-mpi.so preloaded and the
#             tuning file: the drop-in against the library
#   osu       an unmodified external benchmark, the OSU Micro-Benchmarks'
#             blocking collectives (OSU: their source tree, default
#             build-osu-src, built here with mpicc), each collective alone and
#             with libvine-mpi.so and the tuning file preloaded, alternately,
#             in two rounds (the second one preloaded first), 8 B to 16 MiB
#             (allgather and alltoall to 1 MiB a rank), OSU's own iteration
#             counts; then every collective once more preloaded with OSU's
#             validation (-c); int for the reductions. Files osu/*.txt;
#             `sh scripts/osu-table.sh OUT/osu` prints the ratios.
#
# Turn the result files into the tables of docs/performance.md with
# `vine table best --in OUT/small.json --in OUT/large.json --mark 1.05` and
# `vine table tuning --in OUT/tuning.json`.
#
# Where GLPK or jansson are missing (the device machine), carry them:
#   sh scripts/device-deps.sh        # here: writes build-devdeps/
#   OUT=$OUT sh scripts/device-tune.sh   # there, with build-devdeps carried
#
# Variables: OUT (default results/tune-DATE-TIME), NP (default: every core), RANKS,
# BUDGET (seconds, default 520), TUNE_BUDGET (default 240), BUILD (default
# build-tune), STAGES (default "small large overhead preload osu": the stages
# after the tune), TUNING (a tuning file to use instead of the tune stage's),
# OSU, OSU_ARGS (OSU's options for the timed runs; -f adds the minimum and the
# maximum over ranks), QUICK=1 (tiny sizes and budgets, to try the script on a
# small machine), PACK (a .tgz path: every file of OUT packed into it at the end, for
# a device that returns few files).
# $bind and $ranks_opt are split into words on purpose.
# shellcheck disable=SC2086
set -eu
cd "$(dirname "$0")/.."
t0=$(date +%s)
. scripts/device-env.sh
BUILD=${BUILD:-build-tune}
OUT=${OUT:-results/tune-$(date +%Y%m%d-%H%M%S)}
cores=$(nproc)
NP=${NP:-$cores}
BUDGET=${BUDGET:-520}
TUNE_BUDGET=${TUNE_BUDGET:-240}
QUICK=${QUICK:-0}
RANKS=${RANKS:-$NP}
STAGES=${STAGES:-small large overhead preload osu}
OSU=${OSU:-build-osu-src}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
if [ "$QUICK" = 1 ]; then
    export OMPI_MCA_rmaps_base_oversubscribe=1
    bind="--bind-to none"
    small="8B..1KiB" large="4KiB..16KiB" iters_small=50 iters_large=5 max=16KiB
    overhead_args="--batches 5 --iters 200"
    osu_max=4096 osu_args="-i 20 -x 2"
else
    export OMPI_MCA_rmaps_base_oversubscribe=0
    bind="--bind-to core"
    small="8B..64KiB" large="128KiB..16MiB" iters_small=500 iters_large=20 max=16MiB
    overhead_args="--batches 20"
    osu_max=16777216 osu_args=""
fi
BIN=$BUILD/bin
ranks_opt="--ranks $RANKS"
[ "$RANKS" = all ] && ranks_opt=""

. scripts/device-stages.sh

machine() {
    echo "cores (nproc): $cores; ranks: $NP; $(mpirun --version 2>&1 | head -1)"
    lscpu 2>/dev/null | head -20 || true
    mpirun_np "$NP" $bind --report-bindings true
}

build() {
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DVINE_TESTS=OFF -DVINE_WERROR=OFF || return
    cmake --build "$BUILD" -j "$cores" --target vine-tune vine-bench vine_cli vine-mpi
}

tune() {
    mpirun_np "$NP" $bind "$BIN/vine-tune" --out "$OUT/tuning.json" --budget "$TUNE_BUDGET" \
        --max-size "$max" $ranks_opt --progress
}

tuned_bench() { # name, sizes, iterations
    VINE_TUNING_FILE=$OUT/tuning.json mpirun_np "$NP" $bind "$BIN/vine-bench" coll --coll all \
        --algo auto --size "$2" --iters "$3" --check --json "$OUT/$1.json"
}

overhead() {
    VINE_TUNING_FILE=$OUT/tuning.json mpirun_np "$NP" $bind "$BIN/vine-bench" overhead $overhead_args
}

# The same plain MPI calls (vine-bench's mpi row) without and with the drop-in.
preload() {
    lib=$(cd "$BUILD/lib" && pwd)/libvine-mpi.so
    mpirun_np "$NP" $bind "$BIN/vine-bench" coll --coll all --algo mpi --size "$small" \
        --iters "$iters_small" --json "$OUT/preload-off.json" || return
    mpirun_np "$NP" $bind -x LD_PRELOAD="$lib" -x VINE_TUNING_FILE="$OUT/tuning.json" \
        "$BIN/vine-bench" coll --coll all --algo mpi --size "$small" --iters "$iters_small" \
        --json "$OUT/preload-on.json"
}

# The OSU Micro-Benchmarks, unmodified, without and with the drop-in.
osu_colls="allreduce reduce reduce_scatter bcast allgather alltoall gather scatter"
osu_run() { # collective, off|on, then OSU's options
    c=$1 how=$2
    shift 2
    omax=$osu_max
    case $c in allgather | alltoall | gather | scatter) [ "$omax" -gt 1048576 ] && omax=1048576 ;; esac
    case $c in allreduce | reduce | reduce_scatter) set -- -T mpi_int "$@" ;; esac
    pre=""
    [ "$how" = on ] && pre="-x LD_PRELOAD=$lib -x VINE_TUNING_FILE=$OUT/tuning.json"
    mpirun_np "$NP" $bind $pre "$BUILD/osu/osu_$c" -m "8:$omax" "$@"
}
osu() {
    [ -d "$OSU/c/util" ] || { echo "no OSU source tree in $OSU"; return 1; }
    u=$OSU/c/util
    mkdir -p "$BUILD/osu" "$OUT/osu"
    for c in $osu_colls; do
        mpicc -O2 -w -I"$u" "$OSU/c/mpi/collective/blocking/osu_$c.c" "$u/osu_util.c" \
            "$u/osu_util_mpi.c" "$u/osu_util_validation.c" "$u/osu_util_graph.c" \
            "$u/osu_util_papi.c" -lm -o "$BUILD/osu/osu_$c" || return
    done
    lib=$(cd "$BUILD/lib" && pwd)/libvine-mpi.so
    for round in 1 2; do
        order="off on"
        [ "$round" = 2 ] && order="on off"
        for c in $osu_colls; do
            for how in $order; do
                osu_run "$c" "$how" ${OSU_ARGS-$osu_args} >"$OUT/osu/$c-$how-$round.txt" 2>&1 || return
            done
        done
    done
    for c in $osu_colls; do
        osu_run "$c" on -c -i 3 -x 1 >"$OUT/osu/$c-check.txt" 2>&1 || return
        ! grep -q Fail "$OUT/osu/$c-check.txt" || { echo "osu_$c: validation failed"; return 1; }
    done
}

echo "device-tune.sh: results in $OUT, budget $BUDGET s"
stage machine 5 machine
stage build 60 build
if [ ! -x "$BIN/vine-tune" ]; then
    echo "device-tune.sh: no $BIN/vine-tune, nothing measured ($OUT/build.txt)" | tee -a "$OUT/stages.txt"
    exit 1
fi
if [ -n "${TUNING:-}" ]; then
    cp "$TUNING" "$OUT/tuning.json" && echo "tune: skipped, TUNING=$TUNING" | tee -a "$OUT/stages.txt"
else
    stage tune $((TUNE_BUDGET + 10)) tune
fi
[ -s "$OUT/tuning.json" ] || { echo "device-tune.sh: vine-tune wrote no file" | tee -a "$OUT/stages.txt"; exit 1; }
for s in $STAGES; do
    case $s in
    small) stage small 30 tuned_bench small "$small" "$iters_small" ;;
    large) stage large 60 tuned_bench large "$large" "$iters_large" ;;
    overhead) stage overhead 15 overhead ;;
    preload) stage preload 30 preload ;;
    osu) stage osu 120 osu ;;
    *) echo "device-tune.sh: unknown stage $s" | tee -a "$OUT/stages.txt" ;;
    esac
done
"$BIN/vine" table best --in "$OUT/small.json" --in "$OUT/large.json" --mark 1.05 \
    >"$OUT/table.md" 2>&1 || true
"$BIN/vine" table tuning --in "$OUT/tuning.json" >"$OUT/tuning.md" 2>&1 || true
[ -n "${PACK:-}" ] && (cd "$OUT" && tar czf "$PACK" --exclude="$(basename "$PACK")" .) || true
echo "device-tune.sh: done in $(($(date +%s) - t0)) s; $OUT/stages.txt"
