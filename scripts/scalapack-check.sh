#!/bin/sh
# Runs ScaLAPACK's own testers, as Debian 12 builds them (scalapack-mpi-test:
# the BLACS testers xCbtest and xFbtest, and the residual-checking testers
# of the factorizations and eigensolvers, x[sdcz]lu ...), on the MPI library
# alone and with libvine-mpi preloaded, and lists every run whose outcome
# differs: a held-out check of the drop-in library under real numerical
# programs that vine's authors did not write (docs/pmpi.md, "ScaLAPACK's
# testers").  BLACS calls MPI_Bcast on vector datatypes (submatrices),
# MPI_Reduce and MPI_Allreduce with its own operations (MPI_Op_create) on
# row, column and grid communicators, and MPI_Barrier.
#
#   sh scripts/scalapack-check.sh OUTDIR
#
# Needs Debian's scalapack-mpi-test (apt-get install scalapack-mpi-test:
# the testers for both libraries, and scalapack-test-common, their input
# files).  MPI=ompi (default: build/lib/libvine-mpi.so) or MPI=mpich
# (build-mpich/lib: libvine-mpi.so with libvine_mpich_yield.so in both
# runs).  NPS (default "4 8": the testers' process grids use up to 8 ranks;
# Debian's own ctest runs 4) are the sizes; PROGS (default: every tester of
# the package but those in SKIP) the testers, by name; SKIP (default
# "xsllt xdllt": they hang alone too, xsllt on 4 and 8 ranks and xdllt on
# 8, Reference-ScaLAPACK/scalapack#121) the testers left out of the
# default; TEST_TIMEOUT (default 300) the limit of one run in seconds;
# VINE_LIB overrides the library preloaded (a list with libasan first for
# the sanitizer build); SCALAPACK_TESTS and SCALAPACK_DATA the directories
# of the testers and of their input.  The VINE_ variables of the
# environment reach the ranks, so VINE_<COLL>_ALGORITHM runs the testers
# on forced algorithms; REUSE_PLAIN=1 then takes the outcomes alone from
# OUTDIR/plain.txt of an earlier run, where it has them, instead of running
# them again.
#
# A tester reads its input file (LU.dat, bt.dat ...) from its working
# directory: each run gets a fresh copy of them.  An outcome is the exit
# status (the BLACS testers end in BLACS_ABORT on purpose, so theirs is not
# 0, alone too), the counts of tests passed, failed and skipped that the
# tester prints, and the number of lines that say FAILED (but for "0
# FAILED").  Writes OUTDIR/<mpi>.<tester>.npN.{plain,vine}.log,
# OUTDIR/plain.txt and OUTDIR/summary.txt; exits 1 when some outcome
# differs.
set -eu

out=${1:?usage: sh scripts/scalapack-check.sh OUTDIR}
here=$(cd "$(dirname "$0")/.." && pwd)
name=scalapack-check.sh
# shellcheck source=scripts/held-out-mpi.sh
. "$here/scripts/held-out-mpi.sh"
arch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)
case $mpi in
ompi) tdir=/usr/lib/$arch/scalapack/openmpi-tests ;;
*) tdir=/usr/lib/$arch/scalapack/mpich-tests ;;
esac
tdir=${SCALAPACK_TESTS:-$tdir}
data=${SCALAPACK_DATA:-/usr/share/scalapack}
if [ ! -x "$tdir/xCbtest" ] || [ ! -f "$data/LU.dat" ] || [ ! -f "$data/BLACS/bt.dat" ]; then
    echo "$name: no ScaLAPACK testers in $tdir or input in $data" \
        "(Debian: apt-get install scalapack-mpi-test)" >&2
    exit 1
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmo=${TEST_TIMEOUT:-300}

progs=${PROGS:-}
if [ -z "$progs" ]; then
    skip=" ${SKIP-xsllt xdllt} "
    progs=$(cd "$tdir" && for f in x*; do
        if [ -x "$f" ]; then
            case $skip in *" $f "*) ;; *) printf '%s ' "$f" ;; esac
        fi
    done)
fi

# One run in a fresh directory with the input files: the outcome (run in a
# command substitution, so its cd stays there).
run() { # log np preload tester
    log=$1
    work=$out/work
    rm -rf "$work"
    mkdir -p "$work"
    case $4 in
    x[CF]btest) cp "$data"/BLACS/*.dat "$work" ;;
    *) cp "$data"/*.dat "$work" ;;
    esac
    cd "$work"
    launch "$log" "$2" "$3" "$tdir/$4"
    # "  240 tests completed and passed residual checks." and the BLACS
    # testers' "INTEGER SUM TESTS: 1152 TESTS;  864 PASSED,  288 SKIPPED,
    # 0 FAILED.", without the times some testers print beside them.
    counts=$(sed -n -e 's/^ *\([0-9][0-9]*\) tests* \(completed and \)*\([a-z]*\).*/\3:\1/p' \
        -e 's/^\(.*\) TESTS: *\([0-9]*\) TESTS; *\([0-9]*\) PASSED, *\([0-9]*\) SKIPPED, *\([0-9]*\) FAILED.*/\1 \2 \3 \4 \5/p' \
        "$log" | tr ' \n' '_ ')
    failed=$(grep 'FAILED' "$log" | grep -vc ' 0 FAILED' || true)
    san=$(grep -c 'ERROR: AddressSanitizer\|runtime error:' "$log" || true)
    [ "$san" = 0 ] && san="" || san=", $san sanitizer reports"
    echo "exit $rc, ${counts:-no counts}, $failed FAILED lines$san"
}

summary=$out/summary.txt
: >"$summary"
[ "${REUSE_PLAIN:-0}" = 1 ] || : >"$out/plain.txt"
touch "$out/plain.txt"
for np in ${NPS:-4 8}; do
    for t in $progs; do
        tag=$mpi.$t.np$np
        a=$(sed -n "s/^$tag: //p" "$out/plain.txt")
        if [ -z "$a" ]; then
            a=$(run "$out/$tag.plain.log" "$np" "$base" "$t")
            echo "$tag: $a" >>"$out/plain.txt"
        fi
        b=$(run "$out/$tag.vine.log" "$np" "$with" "$t")
        compare "$tag" "$a" "$b"
    done
done
rm -rf "$out/work"
verdict
