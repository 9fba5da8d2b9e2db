#!/bin/sh
# Issue 21's study in one command: several collectives of vine's on a large
# simulated network under SimGrid's smpirun, every vine algorithm that the
# machine can simulate at that scale against SMPI's own selectors (mpich and
# ompi), per placement; then the same cases through `vine sim traffic` on the
# same platform and placement (the model check), and the results in
# vine-bench's format for `vine table` and `vine plot heatmap`.
#
#   sh experiments/scale/study.sh                   1,024 ranks on vine's LUMI
#   NP=256 PLACEMENTS=block BUDGET=600 sh experiments/scale/study.sh
#
# Per placement P (in OUT/P/): hosts-NP.txt (the ranks' hosts), raw-NP.csv
# (selector,collective,algorithm,bytes,ranks,time_us,ran: one smpirun per
# selector, the mpich one timing every vine algorithm too, so that SMPI's
# set-up is paid once a selector), bench-NP.csv (to_bench.sh: vine-bench's
# result format, SMPI's rows named smpi_mpich and smpi_ompi), sim-NP.csv
# (vine sim traffic), compare-NP.md (compare.sh's table), and the runs' logs.
#
# Settings (environment; defaults in brackets):
#   NP [1024]  ranks, one a host
#   TOPO [lumi]  a vine topology (vine sim export writes its platform, host
#          file and host-to-groups map into OUT), or PLATFORM=FILE.xml with
#          HOSTS=FILE (its host names in host order) and optionally MAP=FILE
#          (VINE_TOPOLOGY's map of them) for a SimGrid file of your own
#   CLUSTER [no]  yes: export TOPO as SimGrid's own cluster (vine sim export
#          --cluster: FAT_TREE for a fat tree, TORUS for a torus), routed by
#          SimGrid's cluster routing, instead of vine's graph
#   PLACEMENTS ["block random:1"]  block: the first NP hosts; random:S: NP hosts
#          drawn at random with seed S, in host order (a fragmented allocation)
#   COLLS ["allreduce bcast reduce allgather reduce_scatter_block alltoall"]
#   RANDOM_COLLS ["allreduce bcast reduce"]  the collectives of the placements
#          other than block
#   VEC_SIZES [8,65536,1048576]  bytes of the vector (bcast, reduce, allreduce)
#   BLOCK_SIZES [8,1024,16384]   bytes of a rank's block (allgather,
#          reduce_scatter_block)     A2A_SIZES [8,1024]  (alltoall)
#   EXCLUDE  algorithms left out, NAME everywhere or COLL:NAME (default: the
#          ones whose rounds or messages grow with p, which SimGrid cannot
#          simulate at 1,024 ranks in minutes: ring, pairwise,
#          scatter_allgather_ring, bine_block, alltoall:linear; the shared-
#          memory family, bbs, mpi; the torus algorithms)
#   SELECTORS ["mpich ompi"]   ALGO_SELECTOR [the first of SELECTORS]  the
#          selector whose run also times vine's algorithms (none when it is
#          not in SELECTORS: SMPI's own only, to complete an earlier run)
#   BUDGET [5400] seconds for all smpiruns: a run is
#          stopped when the budget is spent (its finished cases are kept) and
#          the rest is skipped, both said on stderr
#   SMPI_CFG  more smpirun options, e.g. "--cfg=smpi/lat-factor:0:1
#          --cfg=smpi/bw-factor:0:1" (SMPI's per-message factors off)
#   SIM_ARGS ["--lat-factor smpi --bw-factor smpi --clock rank"]  more vine
#          sim traffic options: by default SMPI's own per-message factors, so
#          that the model check compares like with like, and a clock per rank
#          (docs/scale.md says why); "--clock step" or empty when SMPI_CFG
#          turns the factors off
#   BUILD [build-scale] OUT [BUILD/study]  VINE [build/bin/vine]  JOBS [2]
#   ALGOS  the algorithms of every collective, instead of `vine list`'s less
#          EXCLUDE (for a run without VINE, which also skips vine sim and
#          needs PLATFORM and HOSTS: the SimGrid tier's smoke run)
#   PROBE [no]  yes: before a placement's runs, vine-bench probe (built with
#          smpicc in BUILD, or VINE_BENCH) measures the cost model's
#          parameters on that placement under the same platform and SMPI
#          settings (OUT/P/cost-NP.json, its table in probe-NP.txt), and
#          every run of the placement gets VINE_COST_FILE: auto as on a
#          machine whose parameters were measured
#   SMPI_ROWS [yes]  no: the ALGO_SELECTOR run times vine's algorithms only,
#          not SMPI's own (to re-time, say, auto after a change of the cost
#          model; the simulation is deterministic, so the rows of an earlier
#          run stay valid)
# Each smpirun gets VINE_TOPOLOGY=map:MAP when there is a map, so that the
# hierarchical algorithms and auto see the platform's switches and groups.
#
# SimGrid settings and what they mean: run.sh's header and docs/scale.md.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
NP=${NP:-1024}
TOPO=${TOPO:-lumi}
PLACEMENTS=${PLACEMENTS:-block random:1}
COLLS=${COLLS:-allreduce bcast reduce allgather reduce_scatter_block alltoall}
RANDOM_COLLS=${RANDOM_COLLS:-allreduce bcast reduce}
VEC_SIZES=${VEC_SIZES:-8,65536,1048576}
BLOCK_SIZES=${BLOCK_SIZES:-8,1024,16384}
A2A_SIZES=${A2A_SIZES:-8,1024}
EXCLUDE=${EXCLUDE:-ring pairwise scatter_allgather_ring bine_block alltoall:linear shm hier_shm bbs mpi swing bucket bine_torus bine_torus_multiport}
SELECTORS=${SELECTORS:-mpich ompi}
ALGO_SELECTOR=${ALGO_SELECTOR:-${SELECTORS%% *}}
BUDGET=${BUDGET:-5400}
BUILD=${BUILD:-$src/build-scale}
OUT=${OUT:-$BUILD/study}
VINE=${VINE:-$src/build/bin/vine}
JOBS=${JOBS:-2}
SIM_ARGS=${SIM_ARGS---lat-factor smpi --bw-factor smpi --clock rank}

[ -x "$VINE" ] || [ -n "${ALGOS:-}" ] ||
    { echo "study.sh: no $VINE (make build first), and no ALGOS" >&2; exit 2; }
mkdir -p "$OUT"
# smpirun copies the privatized library into TMPDIR as files named by rank
# and removes them at the end: two studies sharing one TMPDIR remove each
# other's copies (dlopen failed: 0000040.so.0), so each gets its own.
TMPDIR=${TMPDIR_STUDY:-$OUT/tmp}
mkdir -p "$TMPDIR"
export TMPDIR
if [ -z "${VINE_LIB:-}" ]; then
    cmake -S "$src" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DVINE_SMPI=ON -DVINE_TESTS=OFF \
        -DCMAKE_C_COMPILER=smpicc >"$BUILD.cmake.log" 2>&1 &&
        cmake --build "$BUILD" -j "$JOBS" --target vine >>"$BUILD.cmake.log" 2>&1 ||
        { echo "study.sh: building libvine with smpicc failed: $BUILD.cmake.log" >&2; exit 1; }
    VINE_LIB=$(ls "$BUILD"/lib/libvine.so.[0-9] | head -n 1)
fi
if [ "${PROBE:-no}" = yes ] && [ -z "${VINE_BENCH:-}" ]; then
    VINE_BENCH=$(dirname "$VINE_LIB")/../bin/vine-bench
    cmake --build "$(dirname "$VINE_LIB")/.." -j "$JOBS" --target vine-bench \
        >>"$BUILD.cmake.log" 2>&1 ||
        { echo "study.sh: building vine-bench with smpicc failed: $BUILD.cmake.log" >&2; exit 1; }
fi
DRIVER=$OUT/scale_exp
smpicc -O2 -I"$src/include" "$here/scale_exp.c" -o "$DRIVER" -L"$(dirname "$VINE_LIB")" -lvine \
    -Wl,-rpath,"$(dirname "$VINE_LIB")"

if [ -z "${PLATFORM:-}" ] && [ -x "$VINE" ]; then
    PLATFORM=$OUT/platform.xml HOSTS=$OUT/platform.hosts MAP=$OUT/platform.map
    cluster=
    [ "${CLUSTER:-no}" = yes ] && cluster=--cluster
    "$VINE" sim export --topo "$TOPO" --simgrid "$PLATFORM" --hostfile "$HOSTS" --map "$MAP" \
        $cluster
fi
[ -r "${PLATFORM:-}" ] && [ -r "${HOSTS:-}" ] ||
    { echo "study.sh: PLATFORM needs HOSTS, its host names in host order" >&2; exit 2; }
[ "$(grep -c . "$HOSTS")" -ge "$NP" ] ||
    { echo "study.sh: $HOSTS has fewer than $NP hosts" >&2; exit 2; }

# The algorithms of collective $1 that the study times: auto, then vine's.
algos_of() {
    [ -n "${ALGOS:-}" ] && { echo "$ALGOS"; return; }
    "$VINE" list --coll "$1" | awk -v c="$1" -v ex=" $EXCLUDE " '
        NR > 1 && index(ex, " " $2 " ") == 0 && index(ex, " " c ":" $2 " ") == 0 {
            printf ",%s", $2 }' | sed 's/^/auto/'
}
sizes_of() {
    case $1 in
    bcast | reduce | allreduce) echo "$VEC_SIZES" ;;
    alltoall) echo "$A2A_SIZES" ;;
    *) echo "$BLOCK_SIZES" ;;
    esac
}

start=$(date +%s)
status=0
for pl in $PLACEMENTS; do
    dir=$OUT/$(echo "$pl" | tr ':' '-')
    mkdir -p "$dir"
    hosts=$dir/hosts-$NP.txt
    case $pl in
    block) grep . "$HOSTS" | head -n "$NP" >"$hosts" ;;
    random:*)
        seed=${pl#random:}
        grep . "$HOSTS" | awk -v s="$seed" 'BEGIN { srand(s) } { print rand(), NR, $0 }' |
            sort -g | head -n "$NP" | sort -k2,2n | awk '{ print $3 }' >"$hosts" ;;
    *) echo "study.sh: unknown placement $pl (block, random:SEED)" >&2; exit 2 ;;
    esac
    colls=$COLLS
    [ "$pl" = block ] || colls=$RANDOM_COLLS
    raw=$dir/raw-$NP.csv
    : >"$raw"
    cost=
    if [ "${PROBE:-no}" = yes ]; then
        cost=$dir/cost-$NP.json
        env ${MAP:+VINE_TOPOLOGY=map:$MAP} timeout "$BUDGET" smpirun -np "$NP" \
            -platform "$PLATFORM" -hostfile "$hosts" \
            --cfg=smpi/privatize-libs:"$VINE_LIB" --cfg=smpi/simulate-computation:no \
            --log=root.thres:critical ${SMPI_CFG:-} "$VINE_BENCH" probe --out "$cost" \
            --iters 5 >"$dir/probe-$NP.txt" 2>&1 ||
            { echo "study.sh: vine-bench probe failed: $dir/probe-$NP.txt" >&2; exit 1; }
        echo "study.sh: $pl: the cost model's parameters in $cost" >&2
    fi
    for sel in $SELECTORS; do
        left=$((BUDGET - ($(date +%s) - start)))
        if [ "$left" -le 0 ]; then
            echo "study.sh: budget spent: skipped the $sel run of placement $pl" >&2
            status=1
            continue
        fi
        set --
        for c in $colls; do
            a=smpi
            [ "$sel" = "$ALGO_SELECTOR" ] && a=$(algos_of "$c"),smpi
            [ "$sel" = "$ALGO_SELECTOR" ] && [ "${SMPI_ROWS:-yes}" = no ] && a=$(algos_of "$c")
            set -- "$@" --coll "$c" --algos "$a" --sizes "$(sizes_of "$c")"
        done
        echo "study.sh: $pl, $sel selector, $NP ranks ($left s of the budget left)" >&2
        out=$dir/$sel-$NP.out
        rc=0
        env ${MAP:+VINE_TOPOLOGY=map:$MAP} ${cost:+VINE_COST_FILE=$cost} timeout "$left" \
            smpirun -np "$NP" -platform "$PLATFORM" -hostfile "$hosts" \
            --cfg=smpi/privatize-libs:"$VINE_LIB" --cfg=smpi/simulate-computation:no \
            --cfg=smpi/auto-shared-malloc-thresh:65536 --cfg=smpi/coll-selector:"$sel" \
            --log=root.thres:critical ${SMPI_CFG:-} "$DRIVER" "$@" >"$out" 2>"$dir/$sel-$NP.log" || rc=$?
        [ $rc = 124 ] && echo "study.sh: budget spent during the $sel run of $pl: kept" \
            "$(grep -c . "$out") cases" >&2
        [ $rc = 0 ] || { status=1; echo "study.sh: the $sel run of $pl: exit $rc" >&2; }
        sed "s/^/$sel,/" "$out" >>"$raw"
    done
    [ -s "$raw" ] || continue
    sh "$here/to_bench.sh" "$raw" "$hosts" >"$dir/bench-$NP.csv"
    [ -x "$VINE" ] || continue
    sim=$dir/sim-$NP.csv
    : >"$sim"
    for c in $colls; do
        "$VINE" sim traffic --topo "simgrid:$PLATFORM" --placement "hosts:$hosts" --ranks "$NP" \
            --coll "$c" --size "$(sizes_of "$c")" --algo all --csv "$dir/sim-$c.csv" $SIM_ARGS \
            >"$dir/sim-$c.txt" 2>&1 && cat "$dir/sim-$c.csv" >>"$sim" ||
            { echo "study.sh: vine sim traffic failed: $dir/sim-$c.txt" >&2; status=1; }
    done
    sh "$here/compare.sh" "$raw" "$sim" >"$dir/compare-$NP.md"
    echo "study.sh: $pl: $raw, $dir/bench-$NP.csv, $dir/compare-$NP.md" >&2
done
exit $status
