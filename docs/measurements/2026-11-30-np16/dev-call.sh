#!/bin/sh
# One device call (2026-11-30): device-open.sh's parts, the 2-rank shm sweep, then torus;
# every step under its own timeout, everything packed into $OUT/all.tgz at the end.
# Variables: OUT, T1 T2 T3 (timeouts), QUICK.
cd "$(dirname "$0")"
R=$OUT
T1=${T1:-300} T2=${T2:-100} T3=${T3:-150}
t0=$(date +%s)
{
echo "start $(date -u)"; nproc; mpirun --version 2>&1 | head -1
timeout "$T1" env OUT="$R/a" PARTS="eager tag zipf nbhalf persist nbv" BUDGET=$((T1 - 10)) \
    sh scripts/device-open.sh; echo "part a: exit $? at $(($(date +%s) - t0)) s"
timeout "$T2" env NP=2 STAGES=sweep OUT="$R/shm2" BUILD=build-nb BUDGET=$((T2 - 10)) \
    sh scripts/device-shm.sh; echo "part shm2: exit $? at $(($(date +%s) - t0)) s"
timeout "$T3" env OUT="$R/b" PARTS="torus" BUDGET=$((T3 - 10)) \
    sh scripts/device-open.sh; echo "part b: exit $? at $(($(date +%s) - t0)) s"
} > "$R/log.txt" 2>&1
cd "$R" && tar czf /tmp/all.tgz . && rm -rf ./* && mv /tmp/all.tgz . && ls -la
