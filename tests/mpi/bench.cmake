# MPI test tier (label mpi), issue 7: vine-bench under the launcher, judged by
# bench_check.sh.
#   mpi.bench.coll.<coll>.{small,large}.np8  `vine-bench coll --coll <coll>
#       --algo all --size 8B..32KiB|64KiB..1MiB --check --iters 3` on 8 ranks:
#       every check passes.  Together with mpi.bench.coll.barrier.np8 they are
#       the issue's `--coll all --size 8B..1MiB` run (47 s in one piece on two
#       idle cores, up to 13 s per collective; split to stay short under load
#       and to run in parallel).
#   mpi.bench.corrupt.np4  VINE_BENCH_CORRUPT (test only) makes --check fail,
#       naming the algorithm, with a non-zero exit.
#   mpi.bench.files.np3, mpi.bench.files_warmup.np2  --json and --csv read
#       back by test_results --run (same rows, consistent numbers) and plotted
#       by `vine plot`.
#   mpi.bench.copybw.np3  --copy-bw --copy-bytes 1MiB: the copy bandwidth's
#       header line, the %copy column and the files' copy fields (present and
#       positive; timing decides nothing).
#   mpi.bench.overhead.np2  `vine-bench overhead` still runs.
#   mpi.bench.nonblocking.np3, mpi.bench.persistent.np2  --nonblocking and
#       --persistent (issue 19) on tiny sizes, judged by bench_nb_check.sh:
#       every check passes, the mode's columns and header lines, numbers in
#       every measured row, and the mode's fields in both result files,
#       equal, within their ranges and consistent with their definitions
#       (timing decides nothing).
#   mpi.bench.nonblocking_v.np3, mpi.bench.persistent_v.np2  the same for the
#       irregular collectives and the scans.
#   mpi.bench.corrupt_nonblocking.np2  VINE_BENCH_CORRUPT makes --check of
#       --nonblocking fail too.
#   mpi.bench.v.uniform.np4, mpi.bench.v.inplace.np4, mpi.bench.v.skew.np4
#       the collectives of issue 20 (irregular and scans) on 4 ranks with
#       --algo all --check, judged by bench_check.sh v: per collective and
#       size exactly the rows mpi, auto and every algorithm of `vine list`,
#       each checked OK.  uniform: allgatherv, alltoallv, gatherv, scan at
#       8B and 1KiB; inplace: alltoallw, scatterv, exscan --in-place --root 1
#       at 12B and 4KiB; skew: the five irregular ones with --dist skew:4,10
#       (rank 0's blocks 10 x the others'), its CSV rows labelled so.
#   mpi.bench.v.usage.np2  --dist for a scan is a usage error (exit 2, the message).
# Registered with add_test: this fragment sorts before mpi.cmake.
if(VINE_SMPI OR NOT TARGET vine-bench)
  return()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/launcher.cmake)

set(vine_bench_check sh ${CMAKE_CURRENT_LIST_DIR}/bench_check.sh)

# vine_bench_test(name np mode [extra mode arguments] -- vine-bench arguments...)
function(vine_bench_test name np mode)
  set(test mpi.bench.${name}.np${np})
  set(work ${CMAKE_CURRENT_BINARY_DIR}/bench_${name})
  add_test(NAME ${test}
    COMMAND ${vine_bench_check} ${mode} ${work} ${ARGN}
  )
  set_tests_properties(${test} PROPERTIES LABELS mpi TIMEOUT 600
    ENVIRONMENT "${VINE_MPI_TEST_ENV}")
endfunction()

set(vine_bench_run ${VINE_MPIRUN} ${VINE_MPIRUN_NP})
set(vine_bench_exe ${MPIEXEC_PREFLAGS} $<TARGET_FILE:vine-bench> ${MPIEXEC_POSTFLAGS})

foreach(coll bcast reduce allreduce allgather reduce_scatter_block reduce_scatter alltoall
    gather scatter)
  vine_bench_test(coll.${coll}.small 8 pass -- ${vine_bench_run} 8 ${vine_bench_exe}
    coll --coll ${coll} --algo all --size 8B..32KiB --check --iters 3)
  vine_bench_test(coll.${coll}.large 8 pass -- ${vine_bench_run} 8 ${vine_bench_exe}
    coll --coll ${coll} --algo all --size 64KiB..1MiB --check --iters 3)
endforeach()
vine_bench_test(coll.barrier 8 pass -- ${vine_bench_run} 8 ${vine_bench_exe}
  coll --coll barrier --algo all --size 8B..1MiB --check --iters 3)

vine_bench_test(corrupt 4 corrupt -- ${vine_bench_run} 4 ${vine_bench_exe}
  coll --coll allreduce,allgather --algo ring --size 8B,1KiB --check --iters 2)
set_property(TEST mpi.bench.corrupt.np4 APPEND PROPERTY ENVIRONMENT
  VINE_BENCH_CORRUPT=allreduce:ring)

# test_results and vine_cli are defined by the time generator expressions are
# evaluated (tests/unit/results_unit.cmake is included after this fragment).
vine_bench_test(files 3 files $<TARGET_FILE:test_results> $<TARGET_FILE:vine_cli> 3
  -- ${vine_bench_run} 3 ${vine_bench_exe}
  coll --coll allreduce,allgather,barrier --size 8B..4KiB --check --iters 5
  --json r.json --csv r.csv --progress)
vine_bench_test(files_warmup 2 files $<TARGET_FILE:test_results> $<TARGET_FILE:vine_cli> 2
  -- ${vine_bench_run} 2 ${vine_bench_exe}
  coll --coll allreduce,reduce_scatter --algo mpi,ring --size 1KiB,64KiB --check
  --iters 4 --warmup 2 --json r.json --csv r.csv --progress)

vine_bench_test(copybw 3 copybw $<TARGET_FILE:test_results> 3
  -- ${vine_bench_run} 3 ${vine_bench_exe}
  coll --coll allreduce,bcast,barrier --algo mpi,ring,binomial --size 8B,64KiB --check --iters 3
  --copy-bw --copy-bytes 1MiB --json r.json --csv r.csv)

vine_bench_test(overhead 2 overhead -- ${vine_bench_run} 2 ${vine_bench_exe}
  overhead --batches 3 --iters 200)

set(vine_bench_nb_check sh ${CMAKE_CURRENT_LIST_DIR}/bench_nb_check.sh)
# vine_bench_nb_test(name np mode -- vine-bench arguments...): judged by bench_nb_check.sh.
function(vine_bench_nb_test name np mode)
  set(test mpi.bench.${name}.np${np})
  set(work ${CMAKE_CURRENT_BINARY_DIR}/bench_${name})
  add_test(NAME ${test}
    COMMAND ${vine_bench_nb_check} ${mode} ${work} $<TARGET_FILE:test_results>
      $<TARGET_FILE:vine_cli> ${np} ${ARGN}
  )
  set_tests_properties(${test} PROPERTIES LABELS mpi TIMEOUT 600
    ENVIRONMENT "${VINE_MPI_TEST_ENV}")
endfunction()

# Algorithms that serve 2 and 3 ranks alike.
vine_bench_nb_test(nonblocking 3 nonblocking -- ${vine_bench_run} 3 ${vine_bench_exe}
  coll --coll allreduce,bcast,alltoall,reduce_scatter,barrier
  --algo mpi,ring,binomial,linear,dissemination --size 8B,4KiB --check --iters 4
  --nonblocking --progress-interval 5 --json r.json --csv r.csv)
vine_bench_nb_test(persistent 2 persistent -- ${vine_bench_run} 2 ${vine_bench_exe}
  coll --coll allreduce,scatter,gather,barrier --algo mpi,ring,binomial,linear,dissemination
  --size 8B,1KiB --check --iters 4 --persistent --json r.json --csv r.csv)
# The same for the irregular collectives and the scans.
vine_bench_nb_test(nonblocking_v 3 nonblocking -- ${vine_bench_run} 3 ${vine_bench_exe}
  coll --coll allgatherv,alltoallv,gatherv,scan --algo mpi,ring,linear,pairwise,recursive_doubling
  --size 8B,4KiB --check --iters 4 --nonblocking --progress-interval 5 --json r.json --csv r.csv)
vine_bench_nb_test(persistent_v 2 persistent -- ${vine_bench_run} 2 ${vine_bench_exe}
  coll --coll scatterv,alltoallw,exscan --algo mpi,linear,pairwise,recursive_doubling
  --size 8B,1KiB --check --iters 4 --persistent --json r.json --csv r.csv)
vine_bench_test(corrupt_nonblocking 2 corrupt -- ${vine_bench_run} 2 ${vine_bench_exe}
  coll --coll allreduce,allgather --algo ring --size 8B,1KiB --check --iters 2 --nonblocking)
set_property(TEST mpi.bench.corrupt_nonblocking.np2 APPEND PROPERTY ENVIRONMENT
  VINE_BENCH_CORRUPT=allreduce:ring)

# The collectives of issue 20 (tools/bench_v.h), judged with `vine list`'s algorithms.
vine_bench_test(v.uniform 4 v $<TARGET_FILE:vine_cli> allgatherv,alltoallv,gatherv,scan
  "8B 1KiB" -- ${vine_bench_run} 4 ${vine_bench_exe}
  coll --coll allgatherv,alltoallv,gatherv,scan --algo all --size 8B,1KiB --check --iters 3)
vine_bench_test(v.inplace 4 v $<TARGET_FILE:vine_cli> alltoallw,scatterv,exscan
  "12B 4KiB" -- ${vine_bench_run} 4 ${vine_bench_exe}
  coll --coll alltoallw,scatterv,exscan --algo all --size 12B,4KiB --check --iters 3
  --in-place --root 1)
vine_bench_test(v.skew 4 v $<TARGET_FILE:vine_cli>
  allgatherv,alltoallv,alltoallw,gatherv,scatterv "skew:4,10"
  -- ${vine_bench_run} 4 ${vine_bench_exe}
  coll --coll allgatherv,alltoallv,alltoallw,gatherv,scatterv --algo all --dist skew:4,10
  --check --iters 3 --csv r.csv)
vine_bench_test(v.usage 2 usage "gatherv and scatterv, not to scan"
  -- ${vine_bench_run} 2 ${vine_bench_exe} coll --coll scan --dist skew:4,10)
