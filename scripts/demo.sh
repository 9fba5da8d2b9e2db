#!/bin/sh
# vine's demo (`make demo`): on this machine, every algorithm of every
# collective against the MPI library, results checked; a short vine-tune of
# the machine, and auto with the tuning file it wrote against the MPI
# library; the plots of the sweep; and what the Bine and hierarchical algorithms do to the cross-group traffic of a
# Dragonfly (vine sim traffic on the lumi preset, no MPI).  Ends with a
# summary: vine's best algorithm against the MPI library per collective and
# size, and every file written.
#
#   sh scripts/demo.sh [--bin DIR] [--np N] [--sizes LIST] [--coll LIST]
#                      [--iters N] [--out DIR] [--launcher CMD] [--tune-budget S]
#                      [--sim-topo SPEC] [--sim-ranks LIST] [--sim-sizes LIST]
#
#   --bin DIR        where vine-bench and vine are (default: build/bin of this
#                    checkout)
#   --np N           ranks of the sweep (default: the cores, at least 2)
#   --sizes LIST     the sweep's sizes (default 8B,1KiB,64KiB,1MiB)
#   --coll LIST      the sweep's collectives (default all)
#   --iters N        timed iterations per row (default: vine-bench's, 100)
#   --out DIR        the results (default results/demo-YYYYmmdd-HHMMSS in the
#                    current directory); made if missing, files in it replaced
#   --launcher CMD   starts the ranks as `CMD -np N ...`, split at spaces
#                    (default: sh scripts/mpirun.sh of this checkout)
#   --tune-budget S  seconds of vine-tune (default 30; 0 leaves the step out);
#                    it measures the sweep's collectives up to its largest size
#   --sim-topo SPEC  the network of the traffic table (default lumi)
#   --sim-ranks LIST its communicator sizes (default 256,2048)
#   --sim-sizes LIST its sizes (default 1KiB,1MiB)
#
# Without gnuplot the plots are skipped with a message.  Exits 0, 1 when a
# step failed (a check of the sweep, a plot, the simulation: the others still
# run and the summary names it), 2 on a bad option or a missing tool.
set -eu

repo=$(cd "$(dirname "$0")/.." && pwd)
cores=$(nproc 2>/dev/null || echo 2)
[ "$cores" -ge 2 ] || cores=2

bin=$repo/build/bin
np=$cores
sizes=8B,1KiB,64KiB,1MiB
colls=all
iters=
out=
launcher="sh $repo/scripts/mpirun.sh"
sim_topo=lumi
sim_ranks=256,2048
sim_sizes=1KiB,1MiB
tune_budget=30
# The traffic table: bcast and allreduce, each classic algorithm (the
# baseline first) beside the Bine and hierarchical ones, on nodes drawn as a batch scheduler
# hands them out.  Names a collective lacks are left out by vine sim.
sim_colls=bcast,allreduce
sim_algos=binomial,recursive_doubling,rabenseifner,bine,bine_large,hier
sim_placement=random-groups:seed=1,ppn=4

usage() {
    sed -n '10,12p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case $1 in
    -h | --help)
        sed -n '10,32p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    esac
    [ $# -ge 2 ] || { echo "demo.sh: $1 needs a value (or is unknown)" >&2; usage; }
    case $1 in
    --bin) bin=$2 ;;
    --np) np=$2 ;;
    --sizes) sizes=$2 ;;
    --coll) colls=$2 ;;
    --iters) iters=$2 ;;
    --out) out=$2 ;;
    --launcher) launcher=$2 ;;
    --tune-budget) tune_budget=$2 ;;
    --sim-topo) sim_topo=$2 ;;
    --sim-ranks) sim_ranks=$2 ;;
    --sim-sizes) sim_sizes=$2 ;;
    *) echo "demo.sh: unknown option $1" >&2; usage ;;
    esac
    shift 2
done
[ -n "$out" ] || out=results/demo-$(date +%Y%m%d-%H%M%S)

for tool in vine-bench vine vine-tune; do
    [ -x "$bin/$tool" ] || {
        echo "demo.sh: $bin/$tool is missing: build first (make)" >&2
        exit 2
    }
done
mkdir -p "$out"

start=$(date +%s)
failed=
# What the summary lists: "NAME<tab>DESCRIPTION" lines, NAME relative to $out
# (an empty NAME continues the description above).
files=

announce() {
    files="$files$1	$2
"
}

fail_step() {
    failed="$failed $1"
    echo "demo: $1 failed" >&2
}

# Runs "$@", its stdout shown and kept in $out/$name; returns the command's
# exit status (a plain pipe into tee would hide it in POSIX sh).
run_tee() {
    name=$1
    shift
    rcfile=$out/.$name.rc
    { "$@" && echo 0 >"$rcfile" || echo $? >"$rcfile"; } | tee "$out/$name"
    rc=$(cat "$rcfile")
    rm -f "$rcfile"
    return "$rc"
}

# --- 1. the collective sweep ------------------------------------------------
echo "== 1/4 every algorithm of every collective against the MPI library, $np ranks, checked"
set -- coll --coll "$colls" --algo all --size "$sizes" --check \
    --json "$out/sweep.json" --csv "$out/sweep.csv"
[ -z "$iters" ] || set -- "$@" --iters "$iters"
echo "\$ $launcher -np $np $bin/vine-bench $*"
sweep_start=$(date +%s)
# shellcheck disable=SC2086 # the launcher is a command line: split it
if run_tee sweep.txt $launcher -np "$np" "$bin/vine-bench" "$@"; then :; else fail_step sweep; fi
echo "sweep: $(($(date +%s) - sweep_start)) s"
announce sweep.txt "the sweep's table, as printed"
if [ -s "$out/sweep.json" ]; then
    announce sweep.json "the rows, the command, MPI library and hosts (docs/bench.md)"
fi
if [ -s "$out/sweep.csv" ]; then
    announce sweep.csv "the same as CSV, for awk, a spreadsheet or pandas"
fi

# --- 2. vine-tune, then auto with its file ------------------------------------
echo
if [ "$tune_budget" = 0 ]; then
    echo "== 2/4 vine-tune: left out (--tune-budget 0)"
else
    echo "== 2/4 a short vine-tune of this machine (${tune_budget} s), then auto with its file against the MPI library"
    # The largest size of the sweep: the last item, or the end of a range.
    tune_max=${sizes##*,}
    tune_max=${tune_max##*..}
    set -- --out "$out/tuning.json" --budget "$tune_budget" --max-size "$tune_max" \
        --coll "$colls" --progress
    echo "\$ $launcher -np $np $bin/vine-tune $*"
    # shellcheck disable=SC2086 # the launcher is a command line: split it
    if run_tee tune.txt $launcher -np "$np" "$bin/vine-tune" "$@" 2>"$out/tune-progress.txt"; then
        announce tune.txt "vine-tune's summary: the ranges chosen, the model's fit"
        announce tuning.json "the tuning file (docs/tuning.md): VINE_TUNING_FILE=$out/tuning.json"
        "$bin/vine" table tuning --in "$out/tuning.json" >"$out/tuning.md" &&
            announce tuning.md "its rules as Markdown tables (vine table tuning)"
        set -- coll --coll "$colls" --algo auto --size "$sizes" --check \
            --json "$out/tuned.json" --csv "$out/tuned.csv"
        [ -z "$iters" ] || set -- "$@" --iters "$iters"
        echo "\$ VINE_TUNING_FILE=$out/tuning.json $launcher -np $np $bin/vine-bench $*"
        # shellcheck disable=SC2086
        if VINE_TUNING_FILE=$out/tuning.json run_tee tuned.txt $launcher -np "$np" \
            "$bin/vine-bench" "$@"; then
            announce tuned.txt "auto with the tuning file against the MPI library"
            announce tuned.csv "the same rows as CSV"
        else
            fail_step tuned
        fi
    else
        fail_step tune
    fi
fi

# --- 3. plots ---------------------------------------------------------------
echo
echo "== 3/4 plots of the sweep"
# The collectives of the sweep with a size (barrier has none), in file order.
plot_colls=
if [ -s "$out/sweep.csv" ]; then
    plot_colls=$(awk -F, '/^#/ || $1 == "collective" { next }
        $1 != "barrier" && !seen[$1]++ { print $1 }' "$out/sweep.csv")
fi
if [ -z "$plot_colls" ]; then
    echo "plots: skipped, the sweep wrote no rows"
elif ! command -v gnuplot >/dev/null 2>&1; then
    echo "plots: skipped, gnuplot is missing (make deps installs gnuplot-nox)"
else
    mkdir -p "$out/plots"
    nplots=0
    # plots/index.html shows them all on one page.
    {
        echo '<!DOCTYPE html>'
        echo '<html><head><meta charset="utf-8"><title>vine demo: plots</title></head><body>'
        echo "<h1>vine demo: every algorithm against the MPI library, $np ranks</h1>"
    } >"$out/plots/index.html"
    for c in $plot_colls; do
        echo "<h2>$c</h2>" >>"$out/plots/index.html"
        for kind in time best; do
            if [ $kind = time ]; then plot="time"; else plot="heatmap"; fi
            if "$bin/vine" plot $plot --in "$out/sweep.json" --coll "$c" \
                --out "$out/plots/$kind-$c.svg" >/dev/null; then
                echo "<img src=\"$kind-$c.svg\" alt=\"$kind-$c\">" >>"$out/plots/index.html"
                nplots=$((nplots + 1))
            else
                fail_step "plot:$kind-$c"
            fi
        done
    done
    echo '</body></html>' >>"$out/plots/index.html"
    if [ $nplots -gt 0 ]; then
        announce plots/index.html "the $nplots plots on one page: per collective C,"
        announce "" "time-C.svg, median time against size, a line per algorithm,"
        announce "" "best-C.svg, the fastest per size (mpi included) and its margin"
    fi
    echo "plots: $nplots SVG files in $out/plots"
fi

# --- 4. the traffic table on a Dragonfly -------------------------------------
echo
echo "== 4/4 bytes between the groups of $sim_topo, Bine and hierarchical against the classic algorithms (a model, no MPI)"
set -- sim traffic --topo "$sim_topo" --ranks "$sim_ranks" --placement "$sim_placement" \
    --coll "$sim_colls" --algo "$sim_algos" --size "$sim_sizes" --csv "$out/sim-traffic.csv"
echo "\$ $bin/vine $*"
if run_tee sim-traffic.txt "$bin/vine" "$@"; then :; else fail_step sim; fi
announce sim-traffic.txt "vine sim traffic on $sim_topo, the table above (docs/sim.md)"
if [ -s "$out/sim-traffic.csv" ]; then
    announce sim-traffic.csv "its rows with exact numbers"
fi

# --- summary ----------------------------------------------------------------
announce summary.txt "this summary"
{
    echo
    echo "== summary"
    if [ -s "$out/sweep.csv" ]; then
        awk -F, -v np="$np" '
        /^# mpi_library: / { lib = substr($0, 16); sub(/,.*/, "", lib); next }
        /^#/ || $1 == "collective" { next }
        $6 != "ok" { next }
        {
            key = $1 SUBSEP $3
            if (!(key in seen)) { seen[key] = 1; order[n++] = key; coll[key] = $1; size[key] = $3 }
            t = $12 + 0
            if ($2 == "mpi") mpi[key] = t
            else if ($2 == "auto") autot[key] = t
            else if (!(key in best) || t < best[key]) { best[key] = t; name[key] = $2 }
        }
        function ratio(a, b) { return b > 0 ? sprintf("%6.2f", a / b) : "     -" }
        END {
            printf "vine against the MPI library (%s), %d ranks: median time in us;\n", lib, np
            printf "best = the fastest of vine'"'"'s algorithms, auto = the one vine picks itself;\n"
            printf "ratio = vine / mpi (below 1: vine is faster)\n"
            printf "%-21s %7s %10s  %-24s %10s %6s %10s %6s\n", "collective", "size", "mpi",
                "best", "median", "ratio", "auto", "ratio"
            cases = 0; wins = 0; autowins = 0
            for (i = 0; i < n; i++) {
                k = order[i]
                if (!(k in mpi) || !(k in best)) continue
                cases++
                if (best[k] < mpi[k]) wins++
                a = "-"; ar = "     -"
                if (k in autot) {
                    a = sprintf("%.2f", autot[k]); ar = ratio(autot[k], mpi[k])
                    if (autot[k] < mpi[k]) autowins++
                }
                printf "%-21s %7s %10.2f  %-24s %10.2f %s %10s %s\n", coll[k], size[k], mpi[k],
                    name[k], best[k], ratio(best[k], mpi[k]), a, ar
            }
            printf "vine'"'"'s best is faster than the MPI library in %d of %d cases, auto in %d.\n",
                wins, cases, autowins
        }' "$out/sweep.csv"
        echo "(The best of several algorithms against one, on a shared machine: a first look,"
        echo "not a benchmark; docs/performance.md has measurements.)"
        echo
    fi
    if [ -s "$out/tuned.csv" ]; then
        awk -F, '
        /^#/ || $1 == "collective" || $6 != "ok" { next }
        { key = $1 SUBSEP $3; t[key, $2] = $12 + 0; if (!(key in seen)) { seen[key] = 1; order[n++] = key } }
        END {
            cells = 0; within = 0; logsum = 0
            for (i = 0; i < n; i++) {
                k = order[i]
                if (!((k, "mpi") in t) || !((k, "auto") in t) || t[k, "mpi"] <= 0) continue
                r = t[k, "auto"] / t[k, "mpi"]
                cells++; logsum += log(r)
                if (r <= 1.05) within++
            }
            if (cells)
                printf "auto with the tuning file: within 5%% of the MPI library or faster in %d of %d cells, geometric mean auto/mpi %.2f (tuned.txt).\n", within, cells, exp(logsum / cells)
        }' "$out/tuned.csv"
        echo
    fi
    echo "files in $out/:"
    printf '%s' "$files" | awk -F'\t' '{ printf "  %-26s %s\n", $1, $2 }'
    echo
    if [ -n "$failed" ]; then
        echo "demo: FAILED:$failed ($(($(date +%s) - start)) s)"
    else
        echo "demo: done in $(($(date +%s) - start)) s"
    fi
} >"$out/summary.txt"
cat "$out/summary.txt"
[ -z "$failed" ] || exit 1
