#!/bin/sh
# Runs `vine-bench coll --nonblocking` or `--persistent` under the MPI
# launcher and judges its output and its result files (tests/mpi/bench.cmake
# registers the cases):
#   sh bench_nb_check.sh nonblocking|persistent WORKDIR TEST_RESULTS VINE NP -- COMMAND...
# COMMAND is a run with --check writing r.json and r.csv (relative to
# WORKDIR).  Both modes want exit 0, "# all checks passed", no FAIL and no
# error row, the mode's header lines and columns, a number in every column
# of every measured row, and files that read back (test_results --run: the
# same rows in both, consistent statistics, the mpi rows' ratio of 1) with
# the mode in their description and the mode's fields in every row, equal in
# both files, and that `vine table best` takes.
#   nonblocking: the columns pure_us comp_us ovl_us %ovl ovl_np_us %ovl_np
#       start_us wait_us; %ovl and %ovl_np between 0 and 100; start_us and
#       wait_us at most ovl_np_us (each is a median of a part of those runs'
#       iterations, maxima over ranks alike); in the files overlap and
#       overlap_noprog between 0 and 1 and equal to max(0, min(1, (median_us
#       + comp_us - overlap_us) / median_us)) (and the same of
#       overlap_noprog_us) to the digits written, overlap_noprog_start_us and
#       overlap_noprog_wait_us in every measured row, between 0 and
#       overlap_noprog_us; progress_interval_us as
#       given by --progress-interval (the value is read from the command).
#   persistent: the columns blocking_us and p/b; p/b a number in every row
#       but the mpi rows of an MPI library without persistent collectives
#       (the header says so), where it is '-'; in the files blocking_us in
#       every measured row and persistent_ratio = median_us / blocking_us.
# Only the presence, the ranges and the arithmetic of the numbers are
# checked, never how fast anything is.
# Prints the command's output and exits non-zero at the first failure.
set -u
mode=$1
work=$2
results=$3
vine=$4
np=$5
shift 5
[ "${1:-}" = "--" ] && shift
. "$(dirname "$0")/../testlib.sh"
fresh_workdir "$work"

start=$(date +%s)
"$@" >out.txt 2>err.txt
rc=$?
echo "$(($(date +%s) - start)) s: $*"
cat out.txt
show_mpi_stderr err.txt

[ "$rc" = 0 ] || fail "exit status $rc"
grep -q '^# all checks passed$' out.txt || fail "no '# all checks passed'"
grep -Eq ' FAIL$' out.txt && fail "a FAIL row"
grep -q ' error: ' out.txt && fail "an error row"
grep -q '^# results written to r.json r.csv$' out.txt || fail "no line naming the files"
measured=$(grep -Ec '^[a-z_]+ +[a-z_]+ +[^ ]+ +[^ ]+ +[0-9.]+ ' out.txt)
[ "$measured" -gt 0 ] || fail "no measured row"
echo "$measured measured rows"

# The files: both read back and agree on the common fields.
"$results" --run r.json r.csv "$np" || fail "the result files do not check out"
"$vine" table best --in r.json --in r.csv >table.txt || fail "vine table best refused the files"
grep -q "^# mode: $mode\$" r.csv || fail "r.csv has no '# mode: $mode'"
grep -q "\"mode\": \"$mode\"" r.json || fail "r.json has no mode $mode"
rows_json=$(grep -c '"collective":' r.json)

# field NAME: the values of row field NAME in r.json, one a line ("" for null), in row order.
field() {
    awk -v k="\"$1\":" '$1 == k { v = $2; sub(/,$/, "", v); print (v == "null" ? "" : v) }' r.json
}

# column NAME: the values of column NAME in r.csv, one a line, in row order (no field is quoted
# in these runs: the test's names and sizes hold no comma).
column() {
    awk -F, -v k="$1" '/^#/ { next } !h { for (i = 1; i <= NF; i++) if ($i == k) c = i; h = 1; next }
        { print $c }' r.csv
}

# same NAME: the field NAME is in every row of r.json and equal to the column of r.csv.
same() {
    field "$1" >"json.$1"
    column "$1" >"csv.$1"
    [ "$(wc -l <"json.$1")" = "$rows_json" ] || fail "r.json: $1 is not in every row"
    paste "json.$1" "csv.$1" | awk -F'\t' '($1 == "") != ($2 == "") || ($1 != "" && $1 + 0 != $2 + 0) {
        print "row " NR ": " $1 " vs " $2; bad = 1 } END { exit bad }' ||
        fail "$1 differs between r.json and r.csv"
}

case $mode in
nonblocking)
    interval=$(echo "$*" | sed -n 's/.*--progress-interval \([0-9.]*\).*/\1/p')
    [ -n "$interval" ] || interval=10
    grep -q '^# nonblocking: pure_us = start + wait alone' out.txt || fail "no '# nonblocking:' line"
    grep -q "every $interval us of it" out.txt || fail "the header does not give the interval $interval"
    grep -Eq '^collective +algorithm +size +count +pure_us +comp_us +ovl_us +%ovl +ovl_np_us +%ovl_np +start_us +wait_us +ratio +check$' out.txt ||
        fail "not the columns of --nonblocking"
    awk '/^[a-z_]+ +[a-z_]+ +[^ ]+ +[^ ]+ +[0-9.]+ / {
             for (i = 5; i <= 13; i++) if ($i !~ /^[0-9]+\.[0-9]+$/) { print "not a number: " $0; bad = 1 }
             if ($8 > 100 || $10 > 100) { print "overlap above 100%: " $0; bad = 1 }
             if ($11 > $9 || $12 > $9) { print "start or wait above ovl_np_us: " $0; bad = 1 }
             if ($2 == "mpi" && $13 != "1.00") { print "mpi ratio: " $0; bad = 1 }
         } END { exit bad }' out.txt || fail "a measured row without its numbers"
    grep -q "^# progress_interval_us: $interval\$" r.csv || fail "r.csv: progress_interval_us is not $interval"
    grep -Eq "\"progress_interval_us\": $interval(\\.0)?,\$" r.json || fail "r.json: progress_interval_us is not $interval"
    grep -q ',busbw_GBps,comp_us,overlap_us,overlap,overlap_noprog_us,overlap_noprog,overlap_noprog_start_us,overlap_noprog_wait_us$' r.csv ||
        fail "r.csv: not the columns of --nonblocking"
    for k in comp_us overlap_us overlap overlap_noprog_us overlap_noprog overlap_noprog_start_us \
        overlap_noprog_wait_us; do
        same $k
    done
    # overlap = max(0, min(1, (median + comp - ovl) / median)) of each measured row.
    column median_us >csv.median_us
    column status >csv.status
    paste csv.status csv.median_us csv.comp_us csv.overlap_us csv.overlap csv.overlap_noprog_us \
        csv.overlap_noprog csv.overlap_noprog_start_us csv.overlap_noprog_wait_us | awk -F'\t' '
        function clamp(x) { return x < 0 ? 0 : x > 1 ? 1 : x }
        # The times are written to the nanosecond (0.0005 us at most off each), the overlap
        # from the times before that rounding.
        function off(f, t) { w = clamp(($2 + $3 - t) / $2); e = 0.002 / $2 + 1e-5; return f < w - e || f > w + e }
        $1 != "ok" { next }
        $3 == "" || $4 == "" || $5 == "" || $6 == "" || $7 == "" || $8 == "" || $9 == "" {
            print "row " NR ": a number missing"; bad = 1; next }
        $8 < 0 || $9 < 0 || $8 > $6 || $9 > $6 { print "row " NR ": start or wait not in [0, overlap_noprog_us]"; bad = 1 }
        $5 < 0 || $5 > 1 || $7 < 0 || $7 > 1 { print "row " NR ": overlap out of [0, 1]"; bad = 1 }
        off($5, $4) || off($7, $6) { print "row " NR ": overlap " $5 " / " $7 " is not the definition"; bad = 1 }
        END { exit bad }' || fail "an overlap that is not its definition"
    grep -q 'blocking_us\|persistent_ratio' r.json r.csv && fail "--persistent fields in a --nonblocking run"
    ;;
persistent)
    grep -q '^# persistent: median_us ... max_us = start + wait' out.txt || fail "no '# persistent:' line"
    grep -Eq '^collective .* busbw +ratio +blocking_us +p/b +check$' out.txt || fail "not the columns of --persistent"
    nompi=0
    grep -q '^# the MPI library has no persistent collectives' out.txt && nompi=1
    awk -v nompi="$nompi" '/^[a-z_]+ +[a-z_]+ +[^ ]+ +[^ ]+ +[0-9.]+ / {
             pb = $(NF - 1); blk = $(NF - 2); num = pb ~ /^[0-9]+\.[0-9]+$/
             if (blk !~ /^[0-9]+\.[0-9]+$/) { print "blocking_us: " $0; bad = 1 }
             # MPICH: the mpi row of scatter times the blocking call (docs/bench.md).
             if ($2 != "mpi" ? !num : nompi ? pb != "-" : !num && !($1 == "scatter" && pb == "-")) {
                 print "p/b: " $0; bad = 1 }
         } END { exit bad }' out.txt || fail "a measured row without its numbers"
    grep -q ',busbw_GBps,blocking_us,persistent_ratio$' r.csv || fail "r.csv: not the columns of --persistent"
    for k in blocking_us persistent_ratio; do
        same $k
    done
    column median_us >csv.median_us
    column status >csv.status
    column algorithm >csv.algorithm
    paste csv.status csv.algorithm csv.median_us csv.blocking_us csv.persistent_ratio | awk -F'\t' '
        $1 != "ok" { next }
        $4 == "" || $4 <= 0 { print "row " NR ": no blocking_us"; bad = 1; next }
        $5 == "" && $2 != "mpi" { print "row " NR ": no persistent_ratio"; bad = 1; next }
        # Both times are written to the nanosecond, the ratio from the times before that.
        $5 != "" { w = $3 / $4; e = 0.0005 / $4 * (1 + w) * 1.01 + 1e-5 * w
                   if ($5 < w - e || $5 > w + e) { print "row " NR ": persistent_ratio " $5 " vs " w; bad = 1 } }
        END { exit bad }' || fail "a persistent_ratio that is not median_us / blocking_us"
    grep -q 'overlap\|comp_us' r.json r.csv && fail "--nonblocking fields in a --persistent run"
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
echo "bench_nb_check $mode: passed"
