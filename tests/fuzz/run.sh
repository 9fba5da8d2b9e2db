#!/bin/sh
# Builds the libFuzzer harnesses of tests/fuzz/fuzz_parsers.c with clang
# (AddressSanitizer, UndefinedBehaviorSanitizer, LeakSanitizer) into
# build-fuzz/ and runs each for SECONDS (default 60) on its seed corpus
# (tests/data files of its kind and tests/data/fuzz/NAME/, the inputs that
# found bugs, which unit.fuzz_replay.* replays in every build), keeping what it learns in
# build-fuzz/corpus/NAME/.  A crash leaves build-fuzz/crash-NAME-*, prints
# the report and ends that harness; the script goes on with the next and
# exits 1 at the end.  Not part of `make test` (it runs for minutes);
# needs clang and libclang-rt-14-dev (Debian).
#
#   sh tests/fuzz/run.sh [SECONDS [NAME ...]]
#   build-fuzz/fuzz_results build-fuzz/crash-...   # one input, with libFuzzer
#   build/bin/fuzz_replay results FILE|DIR ...      # inputs, without it
set -eu
cd "$(dirname "$0")/../.."
secs=${1:-60}
[ $# -gt 0 ] && shift
B=build-fuzz
CC=${CC:-clang}
FLAGS="-g -O1 -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
FLAGS="$FLAGS -D_POSIX_C_SOURCE=200809L -std=c11 -Iinclude -Isrc"
command -v "$CC" >/dev/null || {
    echo "run.sh: needs clang (apt-get install clang libclang-rt-14-dev)" >&2
    exit 2
}
mkdir -p "$B/obj" "$B/corpus"

# The MPI-free core, as CMakeLists.txt takes it (without the executor and the
# MPI parts of the benchmark runtime).
# A changed header rebuilds everything (a stamp marks the last full build).
stamp=$B/obj/.stamp
if [ ! -e "$stamp" ] || [ -n "$(find src include -name '*.h' -newer "$stamp" | head -1)" ]; then
    rm -f "$B"/obj/*.o
fi
touch "$stamp"
objs=
for src in src/sched/*.c src/coll/*.c src/coll/*/*.c src/select/*.c src/topo/*.c src/sim/*.c \
    src/bbs/*.c src/bench/*.c; do
    case $src in src/sched/exec* | src/bench/*_mpi.c) continue ;; esac
    obj=$B/obj/$(echo "$src" | tr / _ | sed 's/\.c$/.o/')
    if [ ! -e "$obj" ] || [ -n "$(find "$src" -newer "$obj")" ]; then
        # shellcheck disable=SC2086 # FLAGS is a list
        $CC $FLAGS -c "$src" -o "$obj" &
    fi
    objs="$objs $obj"
    # At most as many compilers at a time as cores.
    while [ "$(jobs -p | wc -l)" -ge "$(nproc)" ]; do sleep 0.1; done
done
wait

names="topo_spec topo_edges topo_slurm topo_ibnet topo_sg hostgroups levels cost results traffic graph
place hostlist tuning sched"
seeds() { # name: the seed files of its kind
    case $1 in
    topo_edges | graph) echo tests/data/topo/edges.txt tests/data/bbs/*.txt ;;
    topo_slurm) echo tests/data/topo/slurm-tree.conf tests/data/levels/*.conf ;;
    topo_ibnet) echo tests/data/topo/ibnet-*.txt tests/data/levels/ibnet-*.txt ;;
    topo_sg) echo tests/data/topo/simgrid-*.xml ;;
    hostgroups) echo tests/data/levels/* ;;
    results) echo tests/data/bench/*.json tests/data/bench/results_p4.csv ;;
    traffic) echo tests/data/bench/*.mtx tests/data/bench/*.csv ;;
    tuning) echo tests/data/tuning/*.json ;;
    esac
}

status=0
for name in $names; do
    if [ $# -gt 0 ] && ! echo " $* " | grep -q " $name "; then
        continue
    fi
    # shellcheck disable=SC2086
    $CC $FLAGS -fsanitize=fuzzer -DFUZZ_NAME="\"$name\"" tests/fuzz/fuzz_parsers.c tests/fuzz/fuzz_sched.c $objs \
        -lglpk -ljansson -lm -o "$B/fuzz_$name"
    mkdir -p "$B/corpus/$name" "$B/seed/$name"
    for f in $(seeds "$name") tests/data/fuzz/"$name"/*; do
        [ -f "$f" ] && cp "$f" "$B/seed/$name/"
    done
    echo "== $name: $secs s"
    # sched reads about 40 bytes; let its inputs be that long from the start.
    extra=
    [ "$name" = sched ] && extra="-max_len=48 -len_control=0"
    # shellcheck disable=SC2086 # extra is a list
    if ! "$B/fuzz_$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 $extra \
        -artifact_prefix="$B/crash-$name-" "$B/corpus/$name" "$B/seed/$name" \
        >"$B/$name.log" 2>&1; then
        grep -A12 -E '^==[0-9]+==ERROR|^SUMMARY|runtime error|ERROR: libFuzzer' "$B/$name.log" | head -30
        status=1
        continue
    fi
    grep -E '^(#[0-9]+ +DONE|Done)' "$B/$name.log" | tail -1
done
exit $status
