#!/bin/sh
# Issue 8, item 5: the gather/scatter experiment of Kandalla et al. (section 5)
# under SimGrid.  296 processes on two leaf switches (twoswitch.xml), root 0,
# blocks of 0 B to 1 MiB per process, vine's binomial against its
# topology-aware `leader`, first on a quiet network, then while a separate
# 96-process job loops on an alltoall that only exchanges across the switches.
#
#   sh experiments/twoswitch/run.sh            the full experiment (about 5 min on 2 cores)
#   sh experiments/twoswitch/run.sh --quick    a smoke test of the pipeline (0..64 B)
#   sh experiments/twoswitch/run.sh [--quick] -- DRIVER OPTIONS...   extra driver options
#
# Steps: build libvine with smpicc into BUILD (Release, no tests) unless
# VINE_LIB and DRIVER name a library and driver built already (the ctest smoke
# test does that); build the driver gather_exp.c; then, per placement, write
# the host file and the VINE_TOPOLOGY file into OUT/PLACEMENT, run one smpirun
# (gather then scatter, each quiet then busy) and print the tables, which are
# kept in OUT/PLACEMENT/result.txt (and result.csv, one line a measurement).
# Exit status 0 when every run printed its tables, every result was checked
# correct and every call ran the algorithm it asked for.
#
# Settings (environment; defaults in brackets):
#   PLACEMENTS ["block cyclic"; --quick: "block"]  how the job's ranks sit on its nodes:
#       block   ranks 0-63 on switch A (16 a node), 64-295 on B (8 a node), each
#               node's ranks consecutive: a launcher's default "by slot" mapping
#       cyclic  ranks dealt round-robin over the 33 nodes (Open MPI --map-by
#               node, Slurm's cyclic distribution), so neighbours sit on
#               different nodes and switches
#   ALGOS [binomial,leader,leader_bine?]   the first is the baseline of the
#                                improvements; NAME? is left out when vine lacks it
#   MAX_BYTES [1MiB; --quick: 64B]   block sizes 0, 1, 2, 4 ... MAX_BYTES
#   ITERS [1]  BUSY_ITERS [2; --quick: 1]   timed calls per size and algorithm
#   BG_BYTES [4MiB]              the background's message per pair (the paper's 4 MB)
#   TOPO_FORMAT [map]            map | slurm: the VINE_TOPOLOGY file written
#   BUILD [build-twoswitch]  OUT [BUILD/run; --quick: BUILD/run-quick]  JOBS [2]
#   SMPI_FLAGS (extra smpirun options)
#   VINE_LIB, DRIVER             a prebuilt libvine.so.N (its soname file) and driver
#
# Model: computation is not simulated (smpi/simulate-computation:no), so a
# time is network time only and a run is deterministic: on the quiet network
# one call per size gives the exact figure.  See docs/performance.md.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-$src/build-twoswitch}
JOBS=${JOBS:-2}
ALGOS=${ALGOS:-binomial,leader,leader_bine?}
ITERS=${ITERS:-1}
BG_BYTES=${BG_BYTES:-4MiB}
TOPO_FORMAT=${TOPO_FORMAT:-map}
SMPI_FLAGS=${SMPI_FLAGS:-}
quick=0
if [ "${1:-}" = "--quick" ]; then
    quick=1
    shift
fi
if [ "${1:-}" = "--" ]; then
    shift
fi
if [ $quick = 1 ]; then
    OUT=${OUT:-$BUILD/run-quick}
    PLACEMENTS=${PLACEMENTS:-block}
    MAX_BYTES=${MAX_BYTES:-64B}
    BUSY_ITERS=${BUSY_ITERS:-1}
else
    OUT=${OUT:-$BUILD/run}
    PLACEMENTS=${PLACEMENTS:-block cyclic}
    MAX_BYTES=${MAX_BYTES:-1MiB}
    BUSY_ITERS=${BUSY_ITERS:-2}
fi

# The platform (twoswitch.xml): nodes and cores per switch.
A_CORES=16 A_JOB_NODES=4 A_BG_NODES=3 # a-0..a-3 the job, a-4..a-6 the background
B_CORES=8 B_JOB_NODES=29 B_BG_NODES=6 # b-0..b-28 the job, b-29..b-34 the background
JOB=$((A_CORES * A_JOB_NODES + B_CORES * B_JOB_NODES)) # 64 + 232 = 296
BG=$((A_CORES * A_BG_NODES + B_CORES * B_BG_NODES))    # 48 + 48 = 96

for tool in smpicc smpirun; do
    command -v $tool >/dev/null 2>&1 || {
        echo "run.sh: $tool not found: install SimGrid (make deps)" >&2
        exit 1
    }
done
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# 1. libvine and the driver, both built with smpicc.
if [ -n "${VINE_LIB:-}" ] && [ -n "${DRIVER:-}" ]; then
    lib=$VINE_LIB
    driver=$DRIVER
else
    mkdir -p "$BUILD"
    cmake -S "$src" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DVINE_SMPI=ON \
        -DCMAKE_C_COMPILER=smpicc -DVINE_TESTS=OFF >"$BUILD/twoswitch-cmake.log" 2>&1 || {
        cat "$BUILD/twoswitch-cmake.log" >&2
        exit 1
    }
    cmake --build "$BUILD" -j "$JOBS" --target vine >"$BUILD/twoswitch-build.log" 2>&1 || {
        tail -40 "$BUILD/twoswitch-build.log" >&2
        exit 1
    }
    lib=
    for f in "$BUILD"/lib/libvine.so.[0-9]; do # the soname file (smpi/privatize-libs)
        [ -e "$f" ] && lib=$f
    done
    [ -n "$lib" ] || {
        echo "run.sh: no libvine.so.N in $BUILD/lib" >&2
        exit 1
    }
    driver=$OUT/gather_exp
    smpicc -std=c11 -O2 -Wall -Wextra -Werror -I"$src/include" -o "$driver" \
        "$here/gather_exp.c" -L"$BUILD/lib" -lvine -Wl,-rpath,"$BUILD/lib"
fi

# The host file: one line per rank, the job's 296 ranks (placed as asked),
# then the background's 96, in blocks: 48 on switch A, then 48 on B.
write_hosts() {
    awk -v ac=$A_CORES -v an=$A_JOB_NODES -v abg=$A_BG_NODES \
        -v bc=$B_CORES -v bn=$B_JOB_NODES -v bbg=$B_BG_NODES -v placement="$1" '
    BEGIN {
        n = 0
        for (i = 0; i < an; i++) { node[n] = "a-" i; left[n] = ac; n++ }
        for (i = 0; i < bn; i++) { node[n] = "b-" i; left[n] = bc; n++ }
        if (placement == "block") {
            for (k = 0; k < n; k++)
                while (left[k]-- > 0) print node[k]
        } else if (placement == "cyclic") {
            total = an * ac + bn * bc
            for (k = 0; total > 0; k = (k + 1) % n)
                if (left[k] > 0) { print node[k]; left[k]--; total-- }
        } else {
            print "run.sh: unknown placement " placement " (block or cyclic)" > "/dev/stderr"
            exit 1
        }
        for (i = 0; i < abg; i++) for (c = 0; c < ac; c++) print "a-" (an + i)
        for (i = 0; i < bbg; i++) for (c = 0; c < bc; c++) print "b-" (bn + i)
    }'
}

# VINE_TOPOLOGY: the leaf switch of every host.
write_topology() {
    na=$((A_JOB_NODES + A_BG_NODES))
    nb=$((B_JOB_NODES + B_BG_NODES))
    if [ "$TOPO_FORMAT" = slurm ]; then
        echo "SwitchName=swA Nodes=a-[0-$((na - 1))]"
        echo "SwitchName=swB Nodes=b-[0-$((nb - 1))]"
        echo "SwitchName=swC Switches=swA,swB"
    else
        echo "# host  leaf switch"
        echo "a-[0-$((na - 1))] swA"
        echo "b-[0-$((nb - 1))] swB"
    fi
}

# Ranks for the ping-pong probe of job rank 0: the first on its node, on
# another node of its switch, on the other switch.
probe_ranks() {
    awk -v job=$JOB 'NR == 1 { h = $1; next }
        NR > job { exit }
        { r = NR - 1; same_sw = substr($1, 1, 1) == substr(h, 1, 1)
          if ($1 == h) { if (!a) a = r }
          else if (same_sw) { if (!b) b = r }
          else if (!c) c = r }
        END { printf "%d,%d,%d", a, b, c }' "$1"
}

status=0
start=$(date +%s)
for placement in $PLACEMENTS; do
    dir=$OUT/$placement
    mkdir -p "$dir/tmp"
    write_hosts "$placement" >"$dir/hosts.txt"
    write_topology >"$dir/topology.txt"
    echo "== twoswitch, placement $placement: $JOB job ranks + $BG background ranks," \
        "algorithms $ALGOS, blocks 0..$MAX_BYTES, background $BG_BYTES per pair"
    echo "== VINE_TOPOLOGY=$dir/topology.txt ($TOPO_FORMAT)"
    set +e
    # TMPDIR: smpirun copies the program and libvine there once per rank,
    # under names that only hold the rank; a directory of our own keeps
    # smpirun jobs running at the same time apart.  (smpirun 3.32 mis-parses
    # its own -tmpdir option, so the environment it is.)
    # shellcheck disable=SC2086
    TMPDIR=$dir/tmp VINE_TOPOLOGY=$dir/topology.txt smpirun -np $((JOB + BG)) \
        -platform "$here/twoswitch.xml" -hostfile "$dir/hosts.txt" \
        --cfg=smpi/privatize-libs:"$lib" --cfg=smpi/simulate-computation:no \
        --log=root.thres:warning --log=xbt_cfg.thres:warning --log=smpi_config.thres:warning \
        $SMPI_FLAGS \
        "$driver" --job $JOB --algos "$ALGOS" --max-bytes "$MAX_BYTES" --iters "$ITERS" \
        --busy-iters "$BUSY_ITERS" --bg-bytes "$BG_BYTES" \
        --probe "$(probe_ranks "$dir/hosts.txt")" --csv "$dir/result.csv" "$@" \
        >"$dir/result.txt" 2>"$dir/stderr.txt"
    rc=$?
    set -e
    cat "$dir/result.txt"
    # smpirun's own messages (SimGrid warnings, crashes) go to stderr.txt.
    if [ $rc -ne 0 ] || ! tail -1 "$dir/result.txt" | grep -q 'all checks passed'; then
        echo "== placement $placement FAILED (smpirun status $rc); stderr:" >&2
        tail -30 "$dir/stderr.txt" >&2
        status=1
    fi
done
echo "== wall time $(($(date +%s) - start)) s; status $status; results in $OUT"
exit $status
