#!/bin/sh
# usage: tune_rndv.sh SMPIRUN PLATFORM HOSTS LIB TUNE OUT
# vine-tune under SimGrid on 8 hosts of the cluster, one rank each, twice:
# with SMPI's default per-message factors and with them off.  SMPI's default
# latency factor rises by 9.6 times the path's latency from 65,472 bytes
# (probe_rndv.sh), so the model vine-tune fits from the collectives' medians
# must charge the large-message start-up (rndv) from 65,536 bytes, the first
# threshold it tries at or above 65,472, and by more than alpha.  With the
# factors off a message's latency does not depend on its size, and the fit
# must not keep the term.
smpirun=$1 platform=$2 hosts=$3 lib=$4 tune=$5 out=$6
mkdir -p "$out"
run() { # name, smpirun options
    name=$1
    shift
    "$smpirun" -np 8 -platform "$platform" -hostfile "$hosts" \
        --cfg=smpi/privatize-libs:"$lib" --cfg=smpi/simulate-computation:no "$@" \
        --log=root.thres:critical "$tune" --out "$out/$name.json" --max-size 1MiB \
        --coll allreduce,bcast,allgather --ranks 8 --max-iters 5 --budget 3000 \
        >"$out/$name.txt" 2>&1
    rc=$?
    grep '^# model' "$out/$name.txt"
    [ $rc -eq 0 ] || { echo "tune_rndv: vine-tune ($name) exited with $rc" >&2; exit 1; }
}
run factors-on
run factors-off --cfg=smpi/lat-factor:0:1 --cfg=smpi/bw-factor:0:1
# The model's level: "alpha": A, ... "rndv_bytes": B, "rndv_alpha": R (cost.c's writer).
field() { # file, key
    tr -d ' \n' <"$1" | sed -n "s/.*\"model\":{[^}]*\"$2\":\([0-9.e+-]*\).*/\1/p"
}
bytes=$(field "$out/factors-on.json" rndv_bytes)
alpha=$(field "$out/factors-on.json" alpha)
rndv=$(field "$out/factors-on.json" rndv_alpha)
echo "tune_rndv: factors on: rndv_bytes ${bytes:-none}, alpha ${alpha:-none}, rndv_alpha ${rndv:-none}"
awk -v b="$bytes" -v a="$alpha" -v r="$rndv" \
    'BEGIN { exit !(b == 65536 && a > 0 && r > a) }' ||
    { echo "tune_rndv: FAILED: expected rndv_bytes 65536 and rndv_alpha above alpha" >&2; exit 1; }
off=$(field "$out/factors-off.json" rndv_bytes)
[ -z "$off" ] || { echo "tune_rndv: FAILED: factors off, rndv_bytes $off" >&2; exit 1; }
grep -q '"alpha"' "$out/factors-off.json" || { echo "tune_rndv: no model (factors off)" >&2; exit 1; }
echo "tune_rndv: ok"
