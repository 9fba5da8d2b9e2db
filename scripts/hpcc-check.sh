#!/bin/sh
# Runs the HPC Challenge benchmark (Debian's hpcc, built against Open MPI)
# on the MPI library alone and with libvine-mpi preloaded, and lists every
# run whose verdict differs: a held-out check of the drop-in library under a
# program with its own result checks (docs/pmpi.md, "HPC Challenge").  HPL
# checks its solution's residual, PTRANS its transpose, MPIRandomAccess its
# table and MPIFFT its transform, and HPCC sums them up as Success=1 or 0.
# They call MPI_Allreduce (with HPCC's own operations too), MPI_Alltoall,
# MPI_Bcast, MPI_Reduce, MPI_Gather and MPI_Barrier on the world and on
# split communicators.
#
#   sh scripts/hpcc-check.sh OUTDIR
#
# Needs hpcc (apt-get install hpcc) and an input file: HPCC_INPUT (default
# tests/data/hpcc/hpccinf.txt, HPL with N = 1000) with its process grid set
# to P x Q for each size, P the largest divisor of N ranks up to its square
# root.  NPS (default "2 3 4 6 8") are
# the sizes; TEST_TIMEOUT (default 600) the limit of one run in seconds;
# VINE_LIB overrides the library preloaded (a list with libasan first for
# the sanitizer build).  The VINE_ variables of the environment reach the
# ranks, so VINE_<COLL>_ALGORITHM runs it on forced algorithms.  An outcome
# is the exit status, HPCC's Success, the counts of HPL tests that passed
# and failed their residual check, and the errors RandomAccess counted; the
# times and the last digits of the residuals may differ.  Writes
# OUTDIR/hpcc.npN.{plain,vine}.{log,out} (the second, hpccoutf.txt) and
# OUTDIR/summary.txt; exits 1 when some outcome differs.
set -eu

out=${1:?usage: sh scripts/hpcc-check.sh OUTDIR}
here=$(cd "$(dirname "$0")/.." && pwd)
name=hpcc-check.sh
[ "${MPI:-ompi}" = ompi ] || {
    echo "$name: Debian's hpcc is built against Open MPI only" >&2
    exit 1
}
# shellcheck source=scripts/held-out-mpi.sh
. "$here/scripts/held-out-mpi.sh"
command -v hpcc >/dev/null || {
    echo "$name: no hpcc (Debian: apt-get install hpcc)" >&2
    exit 1
}
input=${HPCC_INPUT:-$here/tests/data/hpcc/hpccinf.txt}
[ -f "$input" ] || {
    echo "$name: no input file $input" >&2
    exit 1
}
mkdir -p "$out"
out=$(cd "$out" && pwd)
tmo=${TEST_TIMEOUT:-600}

# One run in a fresh directory with the input for np ranks: the outcome
# (run in a command substitution, so its cd stays there).
run() { # tag np preload
    work=$out/work
    rm -rf "$work"
    mkdir -p "$work"
    p=1 d=1
    while [ $((d * d)) -le "$2" ]; do
        [ $(($2 % d)) -eq 0 ] && p=$d
        d=$((d + 1))
    done
    # Lines 11 and 12 of HPL's part are the grids' P and Q.
    awk -v p="$p" -v q=$(($2 / p)) 'NR == 11 { $1 = p } NR == 12 { $1 = q } { print }' \
        "$input" >"$work/hpccinf.txt"
    cd "$work"
    launch "$out/$1.log" "$2" "$3" hpcc
    cp hpccoutf.txt "$out/$1.out" 2>/dev/null || : >"$out/$1.out"
    s=$(sed -n 's/^Success=//p' "$out/$1.out")
    hpl=$(sed -n 's/^ *\([0-9][0-9]*\) tests completed and \([a-z]*\) residual checks.*/\2:\1/p' \
        "$out/$1.out" | tr '\n' ' ')
    ra=$(sed -n 's/^\(MPIRandomAccess[A-Za-z_]*_Errors\)=/\1:/p' "$out/$1.out" | tr '\n' ' ')
    san=$(grep -c 'ERROR: AddressSanitizer\|runtime error:' "$out/$1.log" || true)
    [ "$san" = 0 ] && san="" || san=", $san sanitizer reports"
    echo "exit $rc, Success=${s:-none}, HPL ${hpl:-none}, ${ra:-no RandomAccess}$san"
}

summary=$out/summary.txt
: >"$summary"
for np in ${NPS:-2 3 4 6 8}; do
    a=$(run "hpcc.np$np.plain" "$np" "$base")
    b=$(run "hpcc.np$np.vine" "$np" "$with")
    compare "np $np" "$a" "$b"
done
rm -rf "$out/work"
verdict
