#!/bin/sh
# Runs numerical programs that vine's authors did not write, with their own
# result checks, through libvine-mpi: Debian's builds of ScaLAPACK's BLACS
# tester (xCbtest: broadcasts of submatrices as vector datatypes, sums,
# absolute maxima and minima with BLACS's own MPI_Op, on row, column and grid
# communicators of 1 to 5 ranks, for five types) and LU tester (xdlu:
# factorizations whose residuals it checks).  Each must pass all of its
# checks, and VINE_VERBOSE must show that vine served the collectives it
# calls.  With --algo the broadcasts, reductions and allreduces are forced
# to that algorithm (VINE_<COLL>_ALGORITHM), and the BLACS tester must show
# calls served by it.
#
# usage: run_apps.sh --launcher CMD [--np-flag -np] --flavor openmpi|mpich
#                    --np N --preload LIB[:LIB...] [--algo NAME] WORKDIR
#
# The programs come from Debian's scalapack-mpi-test (with
# scalapack-test-common, their input files), which scripts/deps.sh installs.
# scripts/scalapack-check.sh runs all of ScaLAPACK's testers on more sizes,
# alone and with vine (docs/pmpi.md).
set -u
. "$(dirname "$0")/../testlib.sh"

launcher='' np_flag=-np flavor='' np='' preload='' algo=''
while [ $# -gt 0 ]; do
    case $1 in
    --launcher) launcher=$2; shift 2 ;;
    --np-flag) np_flag=$2; shift 2 ;;
    --flavor) flavor=$2; shift 2 ;;
    --np) np=$2; shift 2 ;;
    --preload) preload=$2; shift 2 ;;
    --algo) algo=$2; shift 2 ;;
    -*) echo "run_apps.sh: unknown argument $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
if [ -z "$launcher" ] || [ -z "$np" ] || [ -z "$preload" ] || [ $# -ne 1 ]; then
    echo "usage: run_apps.sh --launcher CMD --flavor F --np N --preload LIB [--algo A] WORKDIR" >&2
    exit 2
fi
if ! mkdir -p "$1" || ! work=$(cd "$1" && pwd); then
    fail "cannot make $1"
fi
arch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
case $flavor in
openmpi) tests=/usr/lib/$arch/scalapack/openmpi-tests ;;
mpich) tests=/usr/lib/$arch/scalapack/mpich-tests ;;
*) echo "run_apps.sh: --flavor must be openmpi or mpich" >&2; exit 2 ;;
esac
data=/usr/share/scalapack
if [ ! -x "$tests/xCbtest" ] || [ ! -x "$tests/xdlu" ] || [ ! -f "$data/BLACS/bt.dat" ]; then
    fail "no ScaLAPACK testers in $tests or input in $data: install scalapack-mpi-test (scripts/deps.sh)"
fi

# Only the settings given here reach vine.
for v in $(env | sed -n 's/^\(VINE_[A-Z_]*\)=.*/\1/p'); do
    unset "$v"
done
preload="$preload${LD_PRELOAD:+:$LD_PRELOAD}"
set -- VINE_VERBOSE=1 "LD_PRELOAD=$preload"
if [ -n "$algo" ]; then
    set -- "$@" "VINE_BCAST_ALGORITHM=$algo" "VINE_REDUCE_ALGORITHM=$algo" \
        "VINE_ALLREDUCE_ALGORITHM=$algo"
fi
env_args=""
for kv in "$@"; do
    if [ "$flavor" = openmpi ]; then
        env_args="$env_args -x $kv"
    else
        env_args="$env_args -genv ${kv%%=*} ${kv#*=}"
    fi
done

# app NAME PROGRAM INPUT...: runs PROGRAM on np ranks in $work/NAME with the
# input files copied there; out.txt and err.txt hold its output.
app() {
    name=$1 prog=$2
    shift 2
    fresh_workdir "$work/$name"
    cp "$@" . || fail "cannot copy the input of $name"
    # The paths hold no spaces; the options split into words.
    # shellcheck disable=SC2086
    run "$launcher" $np_flag "$np" $env_args "$prog"
    echo "== $name: exit $rc"
}

# served COLL [ALGO]: wants a line saying vine served COLL (by ALGO).
served() {
    grep -q "^vine: $1 on .* served by ${2:-}" err.txt ||
        { show_mpi_stderr err.txt; fail "$name: no 'vine: $1 ... served by ${2:-}' line"; }
}

# The BLACS tester: every section of its five types ran and none failed.  It
# ends by testing BLACS_ABORT, so its exit status is not 0 on purpose.
app blacs "$tests/xCbtest" "$data"/BLACS/*.dat
grep 'TESTS:' out.txt
grep -q 'The final auxiliary test is for BLACS_ABORT' out.txt ||
    { tail -20 out.txt; show_mpi_stderr err.txt; fail "blacs: the tester did not reach its end"; }
# Point-to-point and broadcast tests for five types, combines for four (the
# tester has no double-precision combine tests).
for part in SDRV BSBR SUM AMX AMN; do
    for t in INTEGER REAL 'DOUBLE PRECISION' COMPLEX 'DOUBLE COMPLEX'; do
        case $part in SUM | AMX | AMN) [ "$t" = 'DOUBLE PRECISION' ] && continue ;; esac
        line=$(grep "^$t $part TESTS: *[0-9]* TESTS;" out.txt) ||
            fail "blacs: no summary of the $t $part tests"
        echo "$line" | grep -q ' 0 FAILED' || fail "blacs: $line"
        echo "$line" | grep -q ' [1-9][0-9]* PASSED' || fail "blacs: none passed: $line"
    done
done
for c in bcast reduce allreduce; do
    served "$c" "$algo"
done
grep -q 'passed to MPI' err.txt && { grep 'passed to MPI' err.txt; fail "blacs: calls passed to MPI"; }

# The LU tester: all its residual checks passed.
app lu "$tests/xdlu" "$data/LU.dat"
[ "$rc" = 0 ] || { tail -20 out.txt; show_mpi_stderr err.txt; fail "lu: exit status $rc"; }
grep 'residual checks\|illegal input' out.txt
grep -q '^ *[1-9][0-9]* tests completed and passed residual checks' out.txt ||
    fail "lu: no test passed"
grep -q '^ *[1-9][0-9]* tests completed and failed' out.txt && fail "lu: some test failed"
for c in bcast allreduce; do
    served "$c"
done

echo "PASS"
