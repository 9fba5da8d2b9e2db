#!/bin/sh
# usage: probe_rndv.sh SMPIRUN PLATFORM HOSTS LIB BENCH OUT
# vine-bench probe under SimGrid on 4 hosts, one rank each, in groups of two
# (VINE_TOPOLOGY=block:2): classes 1 and 2 have a pair of ranks, every pair
# of hosts talks through the cluster's links.  SMPI's default
# latency factor (smpi/lat-factor) is 2.01467 for a message below 1,426 bytes
# and 11.6436 from 65,472 bytes, so a 0-byte message takes 2.01467 times the
# path's latency and one of 64 KiB or more 9.62893 times it more: the probe
# must find the large-message term from 65,536 bytes (the first size of its
# grid at or above 65,472) with rndv_alpha / alpha = 9.62893 / 2.01467 =
# 4.779 on every class, whatever the links' latencies.
smpirun=$1 platform=$2 hosts=$3 lib=$4 bench=$5 out=$6
mkdir -p "$out"
VINE_TOPOLOGY=block:2 "$smpirun" -np 4 -platform "$platform" -hostfile "$hosts" \
    --cfg=smpi/privatize-libs:"$lib" --cfg=smpi/simulate-computation:no \
    --log=root.thres:critical "$bench" probe --out "$out/cost.json" --iters 2 >"$out/probe.txt" 2>&1
rc=$?
cat "$out/probe.txt"
[ $rc -eq 0 ] || { echo "probe_rndv: vine-bench probe exited with $rc" >&2; exit 1; }
# Rows: class alpha_us beta_ns/B GB/s contention note...; a measured class's
# note names its pair ("ranks A and B") and ends with "from B bytes X us more".
awk '
    $1 ~ /^[0-9]+$/ && / ranks [0-9]+ and / {
        rows++
        n = split($0, w, " ")
        for (i = 1; i <= n; i++)
            if (w[i] == "from") { from = w[i + 1]; more = w[i + 3] }
        ratio = $2 > 0 ? more / $2 : 0
        printf "probe_rndv: class %s: from %s bytes, %s us more, %.3f times alpha\n", $1, from, more, ratio
        if (from != 65536 || ratio < 4.76 || ratio > 4.80) bad++
        from = more = ""
    }
    END { if (rows != 2 || bad) { print "probe_rndv: FAILED (" rows " classes)"; exit 1 } }
' "$out/probe.txt" || exit 1
grep -q '"rndv_bytes": 65536' "$out/cost.json" || { echo "probe_rndv: no rndv_bytes in the file" >&2; exit 1; }
echo "probe_rndv: ok"
