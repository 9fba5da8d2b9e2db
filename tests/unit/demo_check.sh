#!/bin/sh
# Runs scripts/demo.sh (`make demo`) small and judges what it says and writes
# (tests/unit/demo.cmake registers the cases):
#   sh demo_check.sh CASE DEMO BINDIR WORKDIR LAUNCHER...
# DEMO is scripts/demo.sh, BINDIR the directory of vine-bench and vine,
# WORKDIR a scratch directory of this case, LAUNCHER the command that starts
# ranks (given -np N).  The sweep is allreduce, bcast and barrier at 8 B and
# 1 KiB on 2 ranks, 3 iterations, vine-tune gets 10 s for the same; the
# traffic table is the demo's own.
#   run        exit 0; every file the summary announces exists and is not
#              empty, the plots of plots/index.html too (two per collective
#              with a size); the sweep's checks passed; the tuning file loads
#              and has a rule for each collective, auto's run with it passed
#              its checks and the summary counts its cells; the table of vine's
#              best against the MPI library agrees with the CSV, worked out
#              again here with sort; the traffic table has all its rows
#   nognuplot  gnuplot out of PATH: the plots are skipped with a message,
#              the rest as in run, exit 0
#   corrupt    VINE_BENCH_CORRUPT=allreduce:ring makes the sweep's check
#              fail: the plots and the traffic table still come, the summary
#              names the failed step, exit 1
# Prints the demo's output and exits non-zero at the first failure.
set -u
case_name=$1
demo=$2
bin=$3
work=$4
shift 4
launcher="$*"
. "$(dirname "$0")/../testlib.sh"
fresh_workdir "$work"

# PATH without gnuplot: each directory of PATH that holds one is replaced by
# a directory of links to everything else in it.
hide_gnuplot() {
    newpath=
    i=0
    old_ifs=$IFS
    IFS=:
    for d in $PATH; do
        IFS=$old_ifs
        if [ -n "$d" ] && [ -e "$d/gnuplot" ]; then
            i=$((i + 1))
            farm=$work/path$i
            mkdir -p "$farm"
            for f in "$d"/*; do
                [ "${f##*/}" = gnuplot ] || ln -s "$f" "$farm/" 2>/dev/null
            done
            d=$farm
        fi
        newpath=${newpath:+$newpath:}$d
    done
    IFS=$old_ifs
    PATH=$newpath
    export PATH
    if command -v gnuplot >/dev/null 2>&1; then
        fail "gnuplot still on PATH"
    fi
}

out=$work/out
colls="allreduce bcast"
case $case_name in
run) ;;
nognuplot) hide_gnuplot ;;
corrupt)
    VINE_BENCH_CORRUPT=allreduce:ring
    export VINE_BENCH_CORRUPT
    ;;
*) fail "unknown case $case_name" ;;
esac

start=$(date +%s)
sh "$demo" --bin "$bin" --np 2 --sizes 8B,1KiB --coll allreduce,bcast,barrier --iters 3 \
    --tune-budget 10 --out "$out" --launcher "$launcher" >stdout.txt 2>stderr.txt
rc=$?
echo "$(($(date +%s) - start)) s, exit status $rc"
cat stdout.txt
# Open MPI's notice of a failed rank is noise here.
show_mpi_stderr stderr.txt

case $case_name in
corrupt)
    [ "$rc" = 1 ] || fail "exit status $rc, want 1"
    grep -q '^demo: FAILED: sweep (' stdout.txt || fail "the summary does not name the sweep"
    grep -q 'allreduce.*ring' stdout.txt stderr.txt || fail "no word of allreduce's ring"
    ;;
*)
    [ "$rc" = 0 ] || fail "exit status $rc"
    grep -q '^demo: done in [0-9]* s$' stdout.txt || fail "no closing line"
    grep -q '^# all checks passed$' "$out/sweep.txt" || fail "sweep: no '# all checks passed'"
    ;;
esac

# The summary: printed last and kept in summary.txt.
[ -s "$out/summary.txt" ] || fail "no summary.txt"
tail -n "$(wc -l <"$out/summary.txt")" stdout.txt | cmp -s - "$out/summary.txt" ||
    fail "summary.txt is not the end of the output"
grep -qxF "files in $out/:" "$out/summary.txt" || fail "no 'files in $out/:' line"

# Every announced file: the lines after "files in", up to the blank line.
announced=$(awk -v hdr="files in $out/:" '
    $0 == hdr { on = 1; next }
    on && /^$/ { exit }
    on && /^  [^ ]/ { print $1 }' "$out/summary.txt")
[ -n "$announced" ] || fail "no file announced"
for f in $announced; do
    [ -s "$out/$f" ] || fail "announced $f is missing or empty"
    echo "announced: $f"
done
for f in sweep.txt sweep.json sweep.csv tune.txt tuning.json tuning.md tuned.txt tuned.csv \
    sim-traffic.txt sim-traffic.csv summary.txt; do
    echo "$announced" | grep -qxF "$f" || fail "$f not announced"
done

# vine-tune's file, and auto with it: 2 collectives x 2 sizes and the barrier.
for c in allreduce bcast barrier; do
    grep -Eq "^$c( \(.*\))?$" "$out/tuning.md" || fail "tuning.md: no table of $c"
done
grep -q '^# all checks passed$' "$out/tuned.txt" || fail "tuned.txt: no '# all checks passed'"
grep -Eq '^auto with the tuning file: within 5% of the MPI library or faster in [0-9]+ of 5 cells, geometric mean auto/mpi [0-9.]+ \(tuned.txt\)\.$' \
    "$out/summary.txt" || fail "the summary does not count auto's cells with the tuning file"

# Plots.
if [ "$case_name" = nognuplot ]; then
    grep -q '^plots: skipped, gnuplot is missing' stdout.txt || fail "no message about gnuplot"
    echo "$announced" | grep -q '^plots/' && fail "plots announced without gnuplot"
    [ -e "$out/plots" ] && fail "a plots directory without gnuplot"
else
    echo "$announced" | grep -qxF plots/index.html || fail "plots/index.html not announced"
    imgs=$(sed -n 's/^<img src="\([^"]*\)".*/\1/p' "$out/plots/index.html" | tr '\n' ' ')
    want=
    for c in $colls; do want="${want}time-$c.svg best-$c.svg "; done
    [ "$imgs" = "$want" ] || fail "index.html shows '$imgs', want '$want'"
    for f in $imgs; do
        grep -q '<svg' "$out/plots/$f" || fail "plots/$f is not an SVG"
    done
    grep -q "^plots: 4 SVG files in $out/plots\$" stdout.txt || fail "no 'plots: 4 SVG files' line"
fi

# The table of vine's best against the MPI library, again from the CSV: the
# mpi row's median, and the fastest other algorithm but auto (sort, stable:
# on a tie the first in file order, as the demo takes it).
csv=$out/sweep.csv
rows=0
for cs in allreduce:8B allreduce:1KiB bcast:8B bcast:1KiB barrier:-; do
    c=${cs%%:*}
    s=${cs#*:}
    data=$(grep -v '^#' "$csv" | grep "^$c,[a-z_]*,$s,[^,]*,[^,]*,ok,")
    mpi=$(echo "$data" | awk -F, '$2 == "mpi" { printf "%.2f", $12 }')
    best=$(echo "$data" | awk -F, '$2 != "mpi" && $2 != "auto"' | sort -s -t, -k12,12g | head -n 1)
    if [ -z "$mpi" ] || [ -z "$best" ]; then
        fail "$c $s: no mpi or no vine row in the CSV"
    fi
    name=$(echo "$best" | cut -d, -f2)
    med=$(echo "$best" | awk -F, '{ printf "%.2f", $12 }')
    if [ "$case_name" = corrupt ] && [ "$c" = allreduce ]; then
        continue # the corrupted ring's rows are timed all the same
    fi
    line=$(grep -E "^$c +$s " "$out/summary.txt") || fail "no summary row for $c $s"
    echo "$line" | awk -v m="$mpi" -v n="$name" -v b="$med" \
        '$3 != m || $4 != n || $5 != b { exit 1 }' ||
        fail "summary row '$line', want mpi $mpi, best $name $med"
    rows=$((rows + 1))
done
echo "$rows summary rows agree with the CSV"

# The traffic table: 2 communicator sizes x 2 sizes x (4 bcast + 5 allreduce
# algorithms, hier among them), all simulated, bine's baseline rows at 0%.
n=$(grep -c ',ok,' "$out/sim-traffic.csv")
[ "$n" = 36 ] || fail "sim-traffic.csv: $n rows ok, want 36"
[ "$(($(wc -l <"$out/sim-traffic.csv") - 1))" = 36 ] || fail "sim-traffic.csv: not 36 rows"
for r in 256 2048; do
    grep -q "^$r,bcast,binomial,1024,ok,.*,binomial,0.0000," "$out/sim-traffic.csv" ||
        fail "no bcast baseline row at $r ranks"
    grep -q "^$r,allreduce,bine_large,1048576,ok," "$out/sim-traffic.csv" ||
        fail "no allreduce bine_large row at $r ranks"
    grep -q "^$r,allreduce,hier,1048576,ok," "$out/sim-traffic.csv" ||
        fail "no allreduce hier row at $r ranks"
done
grep -q '^topology: lumi' "$out/sim-traffic.txt" || fail "sim-traffic.txt: no topology line"
echo "ok"
