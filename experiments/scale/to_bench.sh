#!/bin/sh
# Converts the CSV of experiments/scale/run.sh or study.sh (one line per
# case: selector,collective,algorithm,bytes,ranks,time_us,ran) into
# vine-bench's result format (docs/bench.md, "Result files"), so that
# `vine table` and `vine plot heatmap` read the SimGrid runs:
#
#   sh experiments/scale/to_bench.sh RAW.csv HOSTS [DESCRIPTION] > RESULTS.csv
#
# HOSTS: the smpirun host file of the run (its first `ranks` lines are the
# ranks' hosts). DESCRIPTION goes into the file's mpi_library field (default:
# SimGrid's version). A row's algorithm is vine's name, or smpi_mpich and
# smpi_ompi for SMPI's own collective under the two selectors; its size_label
# is the size in bytes; min, median, mean, p99 and max are all the one
# simulated time (the runs are deterministic, one timed call a case); ratio
# is the time over the faster of smpi_mpich and smpi_ompi at that size;
# algbw is bytes over time, busbw as nccl-tests define it (allreduce
# 2(p-1)/p, allgather, reduce_scatter_block and alltoall (p-1)/p, bcast and
# reduce 1). The rows keep the order of RAW.csv.
set -eu
[ $# -ge 2 ] && [ -r "$1" ] && [ -r "$2" ] ||
    { echo "usage: sh experiments/scale/to_bench.sh RAW.csv HOSTS [DESCRIPTION]" >&2; exit 2; }
desc=${3:-$(smpirun -version 2>/dev/null | head -n 1 || echo SimGrid SMPI)}
[ -n "$desc" ] || desc="SimGrid SMPI"
awk -F, -v hostsf="$2" -v desc="$desc" -v raw="$1" '
{ n++; sel[n] = $1; coll[n] = $2; algo[n] = $3; bytes[n] = $4; ranks = $5; t[n] = $6
  if ($3 == "smpi") {
      k = $2 SUBSEP $4
      if (!(k in best) || $6 < best[k]) best[k] = $6
  }
}
END {
    if (n == 0) { print "to_bench.sh: " raw ": no rows" > "/dev/stderr"; exit 1 }
    print "# format: vine-bench-results 1"
    print "# command: experiments/scale (SimGrid smpirun), converted from " raw
    print "# date: " strftime("%Y-%m-%dT%H:%M:%SZ", systime(), 1)
    print "# mpi_library: " desc
    print "# ranks: " ranks
    print "# dtype: int"
    print "# op: sum"
    print "# root: 0"
    print "# in_place: no"
    print "# check: no"
    print "# iters: 1"
    print "# warmup: -"
    for (r = 0; r < ranks; r++) {
        if ((getline h < hostsf) <= 0) {
            print "to_bench.sh: " hostsf ": fewer than " ranks " hosts" > "/dev/stderr"
            exit 1
        }
        print "# host " r ": " h
    }
    print "collective,algorithm,size_label,size,count,status,error,check,kept,dropped," \
          "min_us,median_us,mean_us,p99_us,max_us,ratio,algbw_GBps,busbw_GBps"
    for (i = 1; i <= n; i++) {
        a = algo[i] == "smpi" ? "smpi_" sel[i] : algo[i]
        k = coll[i] SUBSEP bytes[i]
        ratio = (k in best) && best[k] > 0 ? sprintf("%.6g", t[i] / best[k]) : ""
        f = 1
        if (coll[i] == "allreduce") f = 2 * (ranks - 1) / ranks
        else if (coll[i] != "bcast" && coll[i] != "reduce") f = (ranks - 1) / ranks
        algbw = t[i] > 0 ? bytes[i] / t[i] / 1e3 : 0
        if (coll[i] != "bcast" && coll[i] != "reduce" && coll[i] != "allreduce")
            algbw *= ranks   # a block per rank: the call moves ranks blocks
        printf "%s,%s,%sB,%s,%d,ok,,,1,0,%s,%s,%s,%s,%s,%s,%.6g,%.6g\n", coll[i], a, bytes[i],
               bytes[i], bytes[i] / 4, t[i], t[i], t[i], t[i], t[i], ratio, algbw, algbw * f
    }
}' "$1"
