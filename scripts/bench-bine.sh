#!/bin/sh
# Issue 4's measurement: every Bine algorithm beside the classic algorithm it
# replaces (and the MPI library's collective), at 8 B, 64 KiB and 16 MiB, on
# NP ranks (default: every core) of one machine, results checked.  A Release
# build goes to build-node/.  Output goes to stdout and, when OUT is set, to
# $OUT/bench-bine.txt.
#
#   NP=16 sh scripts/bench-bine.sh
set -eu
cd "$(dirname "$0")/.."
BUILD=${BUILD:-build-node}
cores=$(nproc)
NP=${NP:-$cores}
# Full-machine runs must not oversubscribe: Open MPI would make idle ranks yield.
export OMPI_MCA_rmaps_base_oversubscribe=0

bench() { # collective, algorithms, sizes, iterations
    echo "\$ vine-bench coll --coll $1 --algo $2 --size $3 --iters $4 --check"
    sh scripts/mpirun.sh -np "$NP" --bind-to core "$BUILD/bin/vine-bench" coll --coll "$1" \
        --algo "$2" --size "$3" --iters "$4" --check | grep -v '^#'
}

main() {
    echo "host: $(uname -n), $cores cores, $NP ranks; $(mpirun --version 2>&1 | head -1)"
    cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DVINE_TESTS=OFF >/dev/null
    cmake --build "$BUILD" -j "$cores" --target vine-bench >/dev/null
    rs=mpi,recursive_halving,bine_permute,bine_send,bine_block
    for size_iters in 8B:2000 64KiB:300 16MiB:20; do
        size=${size_iters%:*} iters=${size_iters#*:}
        bench bcast mpi,binomial,bine,scatter_allgather_rd,bine_large "$size" "$iters"
        bench reduce mpi,binomial,bine,rabenseifner,bine_large "$size" "$iters"
        bench allreduce mpi,recursive_doubling,bine,rabenseifner,bine_large "$size" "$iters"
        bench reduce_scatter_block "$rs" "$size" "$iters"
        bench allgather mpi,recursive_doubling,bine_permute,bine_send,bine_block "$size" "$iters"
        bench gather mpi,binomial,bine "$size" "$iters"
        bench scatter mpi,binomial,bine "$size" "$iters"
    done
    # alltoall moves p blocks per rank: 16 MiB blocks would need 2 x 256 MiB per rank.
    for size_iters in 8B:2000 64KiB:100 1MiB:20; do
        bench alltoall mpi,bruck,pairwise,bine "${size_iters%:*}" "${size_iters#*:}"
    done
}

if [ -n "${OUT:-}" ]; then
    main 2>&1 | tee "$OUT/bench-bine.txt"
else
    main
fi
