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
#   sh bench_check.sh v WORKDIR VINE COLLS SIZES -- COMMAND...
#       COMMAND is a --check run with --algo all of the collectives COLLS
#       (comma-separated) at the size labels SIZES (space-separated: sizes
#       such as 8B or --dist specs such as skew:4,10): exit 0, "# all checks
#       passed", and per collective and size exactly the expected rows: mpi
#       (check -), auto and every algorithm `VINE list` names for the
#       collective, each checked OK, and no other row.  When COMMAND wrote
#       r.csv, each of its rows has a size label of SIZES and status ok.
#   sh bench_check.sh usage WORKDIR TEXT -- COMMAND...
#       exit 2 (a usage error) with TEXT in stderr, and no row on stdout
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
elif [ "$mode" = usage ]; then
    text=$1
    shift
elif [ "$mode" = v ]; then
    vine=$1
    colls=$2
    sizes=$3
    shift 3
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
usage)
    [ "$rc" = 2 ] || fail "exit status $rc, want 2"
    grep -qF -- "$text" err.txt || fail "no '$text' on stderr"
    [ "$measured" = 0 ] || fail "rows on stdout"
    ;;
v)
    [ "$rc" = 0 ] || fail "exit status $rc"
    grep -q '^# all checks passed$' out.txt || fail "no '# all checks passed'"
    grep -Eq ' (FAIL|n/a)$' out.txt && fail "a FAIL or n/a row"
    grep -q ' error: ' out.txt && fail "an error row"
    "$vine" list >list.txt || fail "vine list failed"
    for coll in $(echo "$colls" | tr , ' '); do
        algos=$(awk -v c="$coll" '$1 == c && $2 != "mpi" { print $2 }' list.txt)
        [ -n "$algos" ] || fail "vine list names no algorithm of $coll"
        want=0
        for size in $sizes; do
            for algo in mpi auto $algos; do
                chk=OK
                [ "$algo" = mpi ] && chk=-
                n=$(awk -v c="$coll" -v a="$algo" -v s="$size" -v k="$chk" \
                    '$1 == c && $2 == a && $3 == s && $NF == k { n++ } END { print n + 0 }' out.txt)
                [ "$n" = 1 ] || fail "$n rows '$coll $algo $size ... $chk', want 1"
                want=$((want + 1))
            done
        done
        got=$(awk -v c="$coll" '$1 == c { n++ } END { print n + 0 }' out.txt)
        [ "$got" = "$want" ] || fail "$got rows of $coll, want $want"
        echo "$coll: $got rows, each as expected"
    done
    if [ -f r.csv ]; then
        # The data rows follow the comment lines and the header; the size label is field 3,
        # quoted when it holds a comma, and the status field 6.
        awk -v sizes="$sizes" '
            BEGIN { n = split(sizes, s, " "); for (i = 1; i <= n; i++) ok[s[i]] = 1 }
            /^#/ || /^collective,/ { next }
            {
                rest = $0
                sub(/^[^,]*,[^,]*,/, "", rest)
                if (rest ~ /^"/) {
                    match(rest, /^"[^"]*"/)
                    label = substr(rest, 2, RLENGTH - 2)
                    rest = substr(rest, RLENGTH + 2)
                } else {
                    label = rest
                    sub(/,.*/, "", label)
                    sub(/^[^,]*,/, "", rest)
                }
                split(rest, g, ",")
                if (!(label in ok) || g[3] != "ok") { print "bad CSV row: " $0; bad = 1 }
                rows++
            }
            END { exit bad || !rows }' r.csv || fail "r.csv's rows are not the expected ones"
    fi
    ;;
*)
    fail "unknown mode $mode"
    ;;
esac
echo "bench_check $mode: passed"
