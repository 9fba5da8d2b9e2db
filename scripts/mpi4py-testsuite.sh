#!/bin/sh
# Runs mpi4py's own test suite (test/ of an mpi4py source tree, which vine
# does not ship) on the installed mpi4py, twice per communicator size: on
# the MPI library alone and with libvine-mpi preloaded, and lists every size
# whose outcome differs: a held-out check of the drop-in library against
# tests vine's authors did not write (docs/pmpi.md, "mpi4py's test suite").
#
#   MPI4PY_SRC=/path/to/mpi4py sh scripts/mpi4py-testsuite.sh OUTDIR
#
# The tree's tests must match the installed mpi4py: Debian 12's
# python3-mpi4py is 3.1.4, built against Open MPI, so check out tag 3.1.4.
# MPI=ompi (default: mpirun, build/lib/libvine-mpi.so) or MPI=mpich
# (mpiexec.mpich, build-mpich/lib: libvine-mpi.so with
# libvine_mpich_yield.so in both runs; PYTHONPATH must then lead to an
# mpi4py built against MPICH, e.g. `python3 setup.py build
# --mpicc=mpicc.mpich` in the tree, with Debian's cython3).
# PYTHON (default /usr/bin/python3) is the interpreter that imports mpi4py;
# NPS (default "1 2 3 4 5") the sizes; VINE_LIB overrides the library
# preloaded; TEST_TIMEOUT (default 900) the limit
# of one run in seconds.  The spawn and dynamic-process tests are left out
# (they need free slots, which an oversubscribed run has not).  The VINE_
# variables of the environment reach the ranks, so VINE_<COLL>_ALGORITHM
# runs the suite on forced algorithms.  Writes OUTDIR/plain.npN.log,
# OUTDIR/vine.npN.log and OUTDIR/summary.txt.
set -eu

out=${1:?usage: MPI4PY_SRC=/path/to/mpi4py sh scripts/mpi4py-testsuite.sh OUTDIR}
src=${MPI4PY_SRC:?MPI4PY_SRC: an mpi4py source tree (test/runtests.py in it)}
[ -f "$src/test/runtests.py" ] || {
    echo "mpi4py-testsuite.sh: no $src/test/runtests.py" >&2
    exit 1
}
here=$(cd "$(dirname "$0")/.." && pwd)
py=${PYTHON:-/usr/bin/python3}
name=mpi4py-testsuite.sh
# shellcheck source=scripts/held-out-mpi.sh
. "$here/scripts/held-out-mpi.sh"
want="Open MPI"
[ "$mpi" = mpich ] && want=MPICH
"$py" -c 'import mpi4py.MPI' 2>/dev/null || {
    echo "mpi4py-testsuite.sh: $py cannot import mpi4py (Debian: apt-get install python3-mpi4py)" >&2
    exit 1
}
v=$("$py" -c 'from mpi4py import MPI; print(MPI.Get_library_version())')
case $v in *"$want"*) ;; *) false ;; esac || {
    echo "mpi4py-testsuite.sh: $py's mpi4py is not built against $want" >&2
    exit 1
}
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmo=${TEST_TIMEOUT:-900}

# One run: "ranks ok/np, failures, errors" from the log of every rank.
run() { # name np preload
    log=$out/$1.np$2.log
    launch "$log" "$2" "$3" "$py" "$src/test/runtests.py" -q -e spawn -e dynproc
    # The ranks share the log, and their words can land on one line
    # ("OKOK (skipped=46)"): count words, not lines.  Every rank that ends
    # says "Ran N tests", then OK or FAILED.
    ended=$(grep -o 'Ran [0-9]* tests' "$log" | wc -l)
    failed=$(grep -o 'FAILED' "$log" | wc -l)
    ok=$((ended - failed))
    ran=$(sed -n 's/^Ran \([0-9]*\) tests.*/\1/p' "$log" | sort -u | tr '\n' ' ')
    bad=$(grep -c '^\(FAIL\|ERROR\):' "$log" || true)
    echo "exit $rc, $ok of $2 ranks OK, tests run: ${ran:-none}, $bad failures and errors"
}

: >"$out/summary.txt"
for np in ${NPS:-1 2 3 4 5}; do
    a=$(run plain "$np" "$base")
    b=$(run vine "$np" "$with")
    {
        echo "np $np alone: $a"
        echo "np $np with vine: $b"
        # The same outcome but for the run times.
        [ "$a" = "$b" ] || echo "np $np DIFFERS"
    } >>"$out/summary.txt"
done
cat "$out/summary.txt"
