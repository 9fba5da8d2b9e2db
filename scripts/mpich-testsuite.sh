#!/bin/sh
# Runs the collective tests of MPICH's test suite (test/mpi/coll of an MPICH
# source tree, which vine does not ship, and its Fortran ones, f77/coll and
# f08/coll) twice, on the MPI library alone and with libvine-mpi preloaded,
# and lists every test whose outcome differs: a held-out check of the
# drop-in library against programs vine's authors did not write
# (docs/pmpi.md, "MPICH's test suite").  The Fortran tests are built with
# MPI's Fortran wrapper (MPIFC: mpif90, or mpif90.mpich with MPI=mpich);
# FORTRAN=0 leaves them out.
#
#   MPICH_SRC=/path/to/mpich sh scripts/mpich-testsuite.sh OUTDIR
#
# MPI=ompi (default: Open MPI's mpicc and mpirun, build/lib/libvine-mpi.so)
# or MPI=mpich (mpicc.mpich and mpiexec.mpich, build-mpich/lib: libvine-mpi.so
# with libvine_mpich_yield.so in both runs, so that oversubscribed MPICH
# yields its core).  VINE_LIB overrides the library preloaded.  A test passes
# when it exits 0 and prints "No Errors" within TEST_TIMEOUT seconds (120).
# Tests of features vine does not serve (neighbourhood collectives, GPU
# buffers) and the long large-count cases are left out; MPI 3 headers (Open
# MPI 4.1) cannot build the persistent and large-count tests, which are
# then listed as not built.  Writes OUTDIR/plain.txt, OUTDIR/vine.txt and
# OUTDIR/diff.txt.  The VINE_ variables of the environment reach the ranks
# (VINE_ALLREDUCE_ALGORITHM=bine ... runs the suite on forced algorithms).
set -eu

out=${1:?usage: MPICH_SRC=/path/to/mpich sh scripts/mpich-testsuite.sh OUTDIR}
src=${MPICH_SRC:?MPICH_SRC: an MPICH source tree (test/mpi/coll in it)}
[ -d "$src/test/mpi/coll" ] || { echo "mpich-testsuite.sh: no $src/test/mpi/coll" >&2; exit 1; }
here=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmo=${TEST_TIMEOUT:-120}

# launch.sh NP PRELOAD PROGRAM ARGS...: the launcher, so that timeout can run it.
case ${MPI:-ompi} in
ompi)
    cc=${MPICC:-mpicc}
    fc=${MPIFC:-mpif90}
    lib=${VINE_LIB:-$here/build/lib/libvine-mpi.so}
    base=""
    cat >"$out/launch.sh" <<'EOS'
np=$1 pre=$2
shift 2
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
[ -n "$pre" ] && exec mpirun --oversubscribe -np "$np" -x LD_PRELOAD="$pre" "$@"
exec mpirun --oversubscribe -np "$np" "$@"
EOS
    ;;
mpich)
    cc=${MPICC:-mpicc.mpich}
    fc=${MPIFC:-mpif90.mpich}
    lib=${VINE_LIB:-$here/build-mpich/lib/libvine-mpi.so}
    base=$here/build-mpich/lib/libvine_mpich_yield.so
    cat >"$out/launch.sh" <<'EOS'
np=$1 pre=$2
shift 2
exec mpiexec.mpich -np "$np" -genv LD_PRELOAD "$pre" "$@"
EOS
    ;;
*) echo "mpich-testsuite.sh: MPI is ompi or mpich" >&2; exit 1 ;;
esac
[ -f "$lib" ] || { echo "mpich-testsuite.sh: $lib is missing: build vine first" >&2; exit 1; }
with=$lib
[ -n "$base" ] && with=$base:$lib

# The suite's sources, with the two configuration headers its configure
# script would write (only what util/ and dtpools/ test for on Linux).
t=$out/src
rm -rf "$t"
mkdir -p "$t" "$out/bin"
for d in util include coll dtpools; do
    cp -R "$src/test/mpi/$d" "$t/"
done
fortran=${FORTRAN:-1}
if [ "$fortran" = 1 ]; then
    for d in f77 f08; do
        mkdir -p "$t/$d"
        cp -R "$src/test/mpi/$d/coll" "$t/$d/"
    done
fi
printf '%s\n' '#define HAVE_STDARG_H 1' '#define HAVE_STRING_H 1' '#define HAVE_SYS_TIME_H 1' \
    '#define HAVE_UNISTD_H 1' '#define HAVE_SYS_RESOURCE_H 1' '#define HAVE_GETRUSAGE 1' \
    '#define HAVE_MPI_WIN_CREATE 1' '#define HAVE_MPI_INIT_THREAD 1' '#define USE_STRICT_MPI 1' \
    '#define THREAD_PACKAGE_NAME THREAD_PACKAGE_POSIX' \
    >"$t/include/mpitestconf.h"
: >"$t/include/mtest_mpix.h"
echo '#define HAVE_STDLIB_H 1' >"$t/dtpools/dtpoolsconf.h"

inc="-I$t/include -I$t/dtpools/include"
objs=""
for u in "$t"/util/mtest.c "$t"/util/mtest_common.c "$t"/util/dtypes.c "$t"/util/mtest_single.c \
    "$t"/util/run_mpitests.c "$t"/dtpools/src/*.c; do
    o=$out/bin/$(basename "$u" .c).o
    $cc -O1 -g -w -c $inc "$u" -o "$o"
    case $u in */run_mpitests.c) ;; *) objs="$objs $o" ;; esac
done
for f in "$t"/coll/*.c; do
    n=$(basename "$f" .c)
    case $n in *gpu* | *neighb*) continue ;; esac
    main=""
    # Tests written as run() get their main from run_mpitests.c.
    grep -q '^int run(const char' "$f" && main=$out/bin/run_mpitests.o
    $cc -O1 -g -w $inc "$f" $main $objs -o "$out/bin/$n" -lm 2>"$out/bin/$n.err" ||
        rm -f "$out/bin/$n"
done

# The Fortran tests, each with the suite's Fortran MTest_Init.  MPICH's own
# wrapper lets gfortran pass any buffer to mpif.h's routines; Open MPI's
# needs -fallow-argument-mismatch for that.
list=$out/list
grep -v '^#' "$t/coll/testlist.in" | grep -v '^ *$' |
    grep -v 'env=\|mem=\|timeLimit=300\|timeLimit=1800\|neighb' | sed 's|^|coll |' >"$list"
if [ "$fortran" = 1 ]; then
    for d in f77 f08; do
        u=$t/util/mtest_f77.f
        flags="-fallow-argument-mismatch"
        [ $d = f08 ] && u=$t/util/mtest_f08.f90 flags=""
        for f in "$t/$d"/coll/*.f "$t/$d"/coll/*.f90; do
            [ -f "$f" ] || continue
            n=$(basename "${f%.*}")
            $fc -O1 -g -w $flags -J "$out/bin" "$f" "$u" -o "$out/bin/$n" 2>"$out/bin/$n.err" ||
                rm -f "$out/bin/$n"
        done
        grep -v '^#' "$t/$d/coll/testlist" | grep -v '^ *$' | sed "s|^|$d/coll |" >>"$list"
    done
    rm -f "$out"/bin/*.mod
fi

# One pass over the list: "PASS|FAIL(rc)|NOBUILD name np args".
pass() { # result file, preload
    : >"$1"
    while read -r dir name np rest; do
        args=$(printf '%s\n' $rest | sed -n 's/^arg=//p' | tr '\n' ' ')
        if [ ! -x "$out/bin/$name" ]; then
            echo "NOBUILD $name $np $args" >>"$1"
            continue
        fi
        rc=0
        log=$(cd "$t/$dir" &&
            timeout "$tmo" sh "$out/launch.sh" "$np" "$2" "$out/bin/$name" $args 2>&1 \
                </dev/null) || rc=$?
        if [ $rc -eq 0 ] && printf '%s\n' "$log" | grep -q 'No Errors'; then
            echo "PASS $name $np $args" >>"$1"
        else
            echo "FAIL($rc) $name $np $args" >>"$1"
            printf '%s\n' "$log" | tail -5 | sed 's/^/    /' >>"$1"
        fi
    done <"$list"
}

# REUSE_PLAIN=1 keeps OUTDIR/plain.txt from an earlier run (forcing vine's
# algorithms with VINE_<COLL>_ALGORITHM, say, changes only the second pass).
if [ "${REUSE_PLAIN:-0}" != 1 ] || [ ! -s "$out/plain.txt" ]; then
    pass "$out/plain.txt" "$base"
fi
pass "$out/vine.txt" "$with"
# The outcome of each case in the two runs, where they differ.
grep -v '^    ' "$out/plain.txt" | sed 's/^\([A-Z]*\)[^ ]* /\1 /' >"$out/plain.sum"
grep -v '^    ' "$out/vine.txt" | sed 's/^\([A-Z]*\)[^ ]* /\1 /' >"$out/vine.sum"
paste -d'|' "$out/plain.sum" "$out/vine.sum" |
    awk -F'|' '{split($1, a, " "); split($2, b, " ");
        if (a[1] != b[1]) print "alone " a[1] ", with vine " b[1] ":", substr($2, length(b[1]) + 2)}' \
    >"$out/diff.txt"
for f in plain vine; do
    printf '%s: %s passed, %s failed, %s not built\n' "$f" "$(grep -c '^PASS' "$out/$f.sum")" \
        "$(grep -c '^FAIL' "$out/$f.sum")" "$(grep -c '^NOBUILD' "$out/$f.sum")"
done
echo "outcomes that differ ($out/diff.txt):"
cat "$out/diff.txt"
