#!/bin/sh
# The issue-2 performance measurements on one machine, as docs/performance.md
# reports them: a Release build of vine-bench, then the per-call overhead and
# the 8-byte allreduce against the MPI library on 2 ranks and on NP ranks
# (default: every core, rounded down to a power of two for the hand-written
# loop).  Output goes to stdout and, when OUT is set, to $OUT/bench-node.txt.
#
#   sh scripts/bench-node.sh            # here
#   NP=16 sh scripts/bench-node.sh      # on a 16-core machine
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-node}
cores=$(nproc)
NP=${NP:-$cores}
pow2=1
while [ $((pow2 * 2)) -le "$NP" ]; do pow2=$((pow2 * 2)); done
# Full-machine runs must not oversubscribe: Open MPI would make idle ranks yield.
export OMPI_MCA_rmaps_base_oversubscribe=0

run() {
    echo "\$ $*"
    "$@"
}

main() {
    echo "host: $(uname -n), $cores cores; $(mpirun --version 2>&1 | head -1)"
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DVINE_TESTS=OFF -DVINE_WERROR=OFF >/dev/null
    cmake --build "$BUILD" -j "$cores" --target vine-bench >/dev/null
    for np in 2 "$pow2"; do
        for rep in 1 2 3; do
            run sh scripts/mpirun.sh -np "$np" --bind-to core "$BUILD/bin/vine-bench" overhead \
                --batches 60 --iters 5000
        done
        run sh scripts/mpirun.sh -np "$np" --bind-to core "$BUILD/bin/vine-bench" coll \
            --coll allreduce --algo all --size 8B --iters 20000 --check
    done
    if [ "$NP" != "$pow2" ] && [ "$NP" -gt 2 ]; then
        run sh scripts/mpirun.sh -np "$NP" --bind-to core "$BUILD/bin/vine-bench" coll \
            --coll allreduce --algo all --size 8B --iters 20000 --check
    fi
}

if [ -n "${OUT:-}" ]; then
    main 2>&1 | tee "$OUT/bench-node.txt"
else
    main
fi
