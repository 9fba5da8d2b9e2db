#!/bin/sh
# Runs one vine-bench command under the MPI launcher and judges its output
# (tests/mpi/bench.cmake registers the cases):
#   sh bench_check.sh pass WORKDIR -- COMMAND...
#       exit 0, "# all checks passed", measured rows, no FAIL and no error row
#   sh bench_check.sh corrupt WORKDIR -- COMMAND...
#       run with VINE_BENCH_CORRUPT=allreduce:ring on allreduce and allgather
#       with ring: exit non-zero, a message naming allreduce's ring, its rows
#       FAIL, allgather's ring rows still OK
#   sh bench_check.sh files WORKDIR TEST_RESULTS VINE NP -- COMMAND...
#       COMMAND writes r.json and r.csv (relative to WORKDIR): exit 0, both
#       files read back and agree (test_results --run), progress lines on
#       stderr, and `vine plot` draws both plots from them; without
#       --copy-bw no %copy column and no copy field in the files
#   sh bench_check.sh copybw WORKDIR TEST_RESULTS NP -- COMMAND...
#       COMMAND is a run with --copy-bw --copy-bytes 1MiB --check writing
#       r.json and r.csv: exit 0, the "# copy bandwidth:" header line, the
#       %copy column between busbw and ratio with a number in every measured
#       row that has a busbw, and both files holding the copy fields, which
#       test_results --run finds positive and consistent with busbw.  Only
#       presence and positivity are checked, never how fast.
#   sh bench_check.sh overhead WORKDIR -- COMMAND...
#       exit 0 and the three variants' lines
# Prints the command's output and exits non-zero at the first failure.
set -u
mode=$1
work=$2
shift 2
if [ "$mode" = files ]; then
    results=$1
    vine=$2
    np=$3
    shift 3
elif [ "$mode" = copybw ]; then
    results=$1
    np=$2
    shift 2
fi
[ "${1:-}" = "--" ] && shift
. "$(dirname "$0")/../testlib.sh"
fresh_workdir "$work"

start=$(date +%s)
"$@" >out.txt 2>err.txt
rc=$?
echo "$(($(date +%s) - start)) s: $*"
cat out.txt
# Open MPI's notice of a non-zero exit is noise here; the rest of stderr is shown.
show_mpi_stderr err.txt

measured=$(grep -Ec '^[a-z_]+ +[a-z_]+ +[^ ]+ +[^ ]+ +[0-9.]+ ' out.txt)

case $mode in
pass)
    [ "$rc" = 0 ] || fail "exit status $rc"
    grep -q '^# all checks passed$' out.txt || fail "no '# all checks passed'"
    grep -Eq ' FAIL$' out.txt && fail "a FAIL row"
    grep -q ' error: ' out.txt && fail "an error row"
    [ "$measured" -gt 0 ] || fail "no measured row"
    echo "$measured measured rows"
    ;;
corrupt)
    [ "$rc" != 0 ] || fail "exit status 0 although a result was corrupted"
    grep -q 'VINE_BENCH_CORRUPT=allreduce:ring' err.txt || fail "no warning that the switch is set"
    grep -q 'check FAILED: allreduce algorithm ring at size' err.txt ||
        fail "no message naming allreduce's ring"
    grep -Eq '^allreduce +ring .* FAIL$' out.txt || fail "allreduce ring not marked FAIL"
    grep -Eq '^allreduce +ring .* OK$' out.txt && fail "a corrupted allreduce ring row passed"
    grep -Eq '^allgather +ring .* OK$' out.txt || fail "allgather ring should still pass"
    grep -Eq '^allgather +ring .* FAIL$' out.txt && fail "allgather ring was corrupted too"
    grep -q '^# some checks FAILED$' out.txt || fail "no '# some checks FAILED'"
    ;;
files)
    [ "$rc" = 0 ] || fail "exit status $rc"
    grep -q '^# results written to r.json r.csv$' out.txt || fail "no line naming the files"
    grep -q '^vine-bench: \[1/' err.txt || fail "no progress line on stderr"
    "$results" --run r.json r.csv "$np" || fail "the result files do not check out"
    "$vine" plot time --in r.json --out time.svg || fail "vine plot time failed"
    "$vine" plot heatmap --in r.csv --coll allreduce --out heat.svg || fail "vine plot heatmap failed"
    for f in time.svg heat.svg; do
        grep -q '</svg>' "$f" || fail "$f is not a finished SVG"
    done
    grep -q '%copy' out.txt && fail "a %copy column without --copy-bw"
    grep -q 'copy' r.json r.csv && fail "copy fields in the files without --copy-bw"
    ;;
copybw)
    [ "$rc" = 0 ] || fail "exit status $rc"
    grep -q '^# all checks passed$' out.txt || fail "no '# all checks passed'"
    grep -Eq "^# copy bandwidth: all $np ranks [0-9.]+ GB/s, one rank [0-9.]+ GB/s \(1 MiB per rank, memcpy, best of [0-9]+\)\$" out.txt ||
        fail "no '# copy bandwidth:' header line"
    grep -Eq '^collective .* busbw +%copy +ratio +check$' out.txt || fail "no %copy column"
    [ "$measured" -gt 0 ] || fail "no measured row"
    # The %copy field of every measured row: a number where busbw is one, else '-'.
    awk '$1 == "collective" { for (i = 1; i <= NF; i++) { if ($i == "busbw") b = i; if ($i == "%copy") c = i } }
         b && c && /^[a-z_]+ +[a-z_]+ +[^ ]+ +[^ ]+ +[0-9.]+ / {
             if ($b ~ /^[0-9.]+$/ ? $c !~ /^[0-9]+\.[0-9]$/ : $c != "-") { print "bad %copy: " $0; bad = 1 }
         }
         END { exit bad || !b || !c }' out.txt || fail "a measured row without its %copy"
    for k in copy_bytes copy_reps copy_all_GBps copy_one_GBps copy_fraction; do
        grep -q "\"$k\"" r.json || fail "r.json has no $k"
    done
    grep -q '"copy_bytes": 1048576' r.json || fail "r.json: copy_bytes is not 1048576"
    grep -q '^# copy_all_GBps: [0-9]' r.csv || fail "r.csv has no copy_all_GBps"
    head -n 40 r.csv | grep -q ',busbw_GBps,copy_fraction$' || fail "r.csv has no copy_fraction column"
    "$results" --run r.json r.csv "$np" || fail "the result files do not check out"
    ;;
overhead)
    [ "$rc" = 0 ] || fail "exit status $rc"
    for v in '^MPI_Allreduce ' '^vine_allreduce ' '^vine overhead '; do
        grep -q "$v" out.txt || fail "no line matching $v"
    done
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
echo "bench_check $mode: passed"
