# shellcheck shell=sh
# Sourced by scripts/bench-device.sh and scripts/device-tune.sh: the stages of
# a measurement run that must fit a short lease of the device machine.  The
# caller sets OUT (the results directory), BUDGET (seconds) and t0 (the
# start, in seconds since the epoch).

# stage NAME SECONDS COMMAND...: runs the command with its output in
# $OUT/NAME.txt, unless fewer than SECONDS of the budget are left.
stage() {
    name=$1 need=$2
    shift 2
    start=$(date +%s)
    left=$((BUDGET - (start - t0)))
    if [ "$left" -lt "$need" ]; then
        echo "$name: skipped, $left s of the budget left, about $need s needed" | tee -a "$OUT/stages.txt"
        return 0
    fi
    echo "== $name (at $((start - t0)) s)"
    if "$@" >"$OUT/$name.txt" 2>&1; then how=ok; else how="failed (exit $?)"; fi
    echo "$name: $how, $(($(date +%s) - start)) s" | tee -a "$OUT/stages.txt"
    [ "$how" = ok ] || tail -20 "$OUT/$name.txt"
}

mpirun_np() { # ranks, then the command
    np=$1
    shift
    echo "\$ mpirun -np $np $*"
    sh scripts/mpirun.sh -np "$np" "$@"
}
