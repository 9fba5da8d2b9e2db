#!/bin/sh
# Issue 4's measurement: every Bine algorithm beside the classic algorithm it
# replaces (and the MPI library's collective), at 8 B, 64 KiB and 16 MiB, on
# NP ranks (default: every core) of one machine, results checked.  A Release
# build goes to build-node/ (BUILD to choose; NOBUILD=1 uses it as it is).
# Output goes to stdout and, when OUT is set, to $OUT/bench-bine.txt; with
# JSON=DIR every run also writes its result file DIR/bine-pNP[-TAG]-K.json, which
# `vine table pairs` (docs/bench.md) turns into the table of
# docs/performance.md.  MPIRUN_ARGS replaces the binding (--bind-to core),
# e.g. with a --rankfile; SIZES and ALLTOALL_SIZES replace the lists of
# SIZE:ITERATIONS below (scripts/bench-device.sh uses all of these).
#
#   NP=16 sh scripts/bench-bine.sh
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-node}
cores=$(nproc)
NP=${NP:-$cores}
MPIRUN_ARGS=${MPIRUN_ARGS:---bind-to core}
# Full-machine runs must not oversubscribe: Open MPI would make idle ranks yield.
export OMPI_MCA_rmaps_base_oversubscribe="${OMPI_MCA_rmaps_base_oversubscribe:-0}"
nrun=0 failed=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

bench() { # collectives, algorithms, sizes, iterations
    nrun=$((nrun + 1))
    json=
    [ -z "${JSON:-}" ] || json="--json $JSON/bine-p$NP${TAG:+-$TAG}-$nrun.json"
    echo "\$ vine-bench coll --coll $1 --algo $2 --size $3 --iters $4 --check $json"
    # shellcheck disable=SC2086 # MPIRUN_ARGS and json are lists of words
    if ! sh scripts/mpirun.sh -np "$NP" $MPIRUN_ARGS "$BUILD/bin/vine-bench" coll --coll "$1" \
        --algo "$2" --size "$3" --iters "$4" --check $json >"$log" 2>&1; then
        failed=$((failed + 1))
        echo "bench-bine.sh: this run failed"
    fi
    grep -v '^#' "$log"
}

main() {
    echo "host: $(uname -n), $cores cores, $NP ranks; $(mpirun --version 2>&1 | head -1)"
    if [ "${NOBUILD:-0}" != 1 ]; then
        cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DVINE_TESTS=OFF -DVINE_WERROR=OFF \
            >/dev/null || return 1
        cmake --build "$BUILD" -j "$cores" --target vine-bench >/dev/null || return 1
    fi
    # Algorithms a collective does not have are skipped, so one run serves
    # several collectives; the reduce-scatter and allgather sets stay apart
    # (reduce_scatter_block's recursive_doubling moves p times the bytes).
    trees=mpi,binomial,bine,scatter_allgather_rd,bine_large,rabenseifner,recursive_doubling
    for size_iters in ${SIZES:-8B:2000 64KiB:300 16MiB:20}; do
        size=${size_iters%:*} iters=${size_iters#*:}
        bench bcast,reduce,allreduce,gather,scatter "$trees" "$size" "$iters"
        bench reduce_scatter_block mpi,recursive_halving,bine_permute,bine_send,bine_block \
            "$size" "$iters"
        bench allgather mpi,recursive_doubling,bine_permute,bine_send,bine_block "$size" "$iters"
    done
    # alltoall moves p blocks per rank: 16 MiB blocks would need 2 x 256 MiB per rank.
    for size_iters in ${ALLTOALL_SIZES:-8B:2000 64KiB:100 1MiB:20}; do
        bench alltoall mpi,bruck,pairwise,bine "${size_iters%:*}" "${size_iters#*:}"
    done
    [ "$failed" = 0 ] || { echo "bench-bine.sh: $failed of $nrun runs failed"; return 1; }
}

# Every run is made even when one fails; the exit status says whether all passed.
if [ -n "${OUT:-}" ]; then
    if main >"$OUT/bench-bine.txt" 2>&1; then rc=0; else rc=1; fi
    cat "$OUT/bench-bine.txt"
    exit "$rc"
fi
main
