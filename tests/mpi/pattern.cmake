# MPI test tier (label mpi), issue 7: the pattern benchmarks' runtime
# (src/bench/pattern_mpi.c) moving the data of every built-in pattern, of
# striping and of the sample files of tests/data/bench, measure(), the errors,
# and the `vine-bench pattern` subcommand (tools/bench_pattern.c, linked into
# the test) with its JSON and CSV read back, and its bandwidth models'
# numbers in the JSON: mpi.pattern.np<n>.
#   mpi.pattern.bwmodel.{rail_bi.np4,asymmetric.np6}  `vine-bench pattern
#       --nic-bw` under the launcher: the printed model lines and the row's
#       packed_GB/s and rr_GB/s columns hold the numbers computed by hand in
#       docs/patterns.md ("Bandwidth models"), and the exit status is 0.  The
#       measured columns are matched as numbers only: no timing decides.
# This fragment sorts after mpi.cmake, which defines vine_mpi_test().
if(VINE_SMPI)
  return()
endif()

vine_mpi_test(pattern NPS 1 2 4 ${VINE_MPI_NP8} ENV VINE_BENCH_DATA=${CMAKE_CURRENT_LIST_DIR}/../data/bench)
target_sources(mpitest_pattern PRIVATE ${PROJECT_SOURCE_DIR}/tools/bench_pattern.c)
target_include_directories(mpitest_pattern PRIVATE ${PROJECT_SOURCE_DIR}/tools)

if(NOT TARGET vine-bench)
  return()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/launcher.cmake)

# vine_bwmodel_test(name np regex vine-bench pattern arguments...): runs the
# command through sh, which appends "exit status N", and matches the output.
function(vine_bwmodel_test name np regex)
  set(test mpi.pattern.bwmodel.${name}.np${np})
  add_test(NAME ${test}
    COMMAND sh -c "\"$@\" 2>&1; echo \"exit status $?\"" sh
            ${VINE_MPIRUN} ${VINE_MPIRUN_NP} ${np} ${MPIEXEC_PREFLAGS}
            $<TARGET_FILE:vine-bench> ${MPIEXEC_POSTFLAGS} pattern ${ARGN})
  set_tests_properties(${test} PROPERTIES LABELS mpi TIMEOUT 300
    ENVIRONMENT "${VINE_MPI_TEST_ENV}" PASS_REGULAR_EXPRESSION "${regex}")
endfunction()

# Six columns of measured numbers (min, median, mean, p99, max, GB/s).
set(vine_bw_measured " +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+")

# rail bi, n=2, g=2, k=2, f_NIC = 200Gb/s = 25 GB/s: packed with p = 2 puts
# both ranks on one NIC: 25; round-robin on r = 2 NICs: 2 * 25 = 50; bi moves
# twice group 0's rate: 50 and 100.  4 messages of 4KiB.
vine_bwmodel_test(rail_bi 4
  "f_NIC = 25\\.000 GB/s per NIC and direction \\(--nic-bw 200Gb/s\\), k = 2 active ranks per node \\(group of g = 2\\)\n#   packed, p = 2 ranks per NIC: +f_NIC [^\n]*= 25\\.000 GB/s per node and direction\n#   round-robin, r = 2 NICs per node: +f_NIC [^\n]*= 50\\.000 GB/s per node and direction\n#   pattern [^\n]*packed_GB/s = 50\\.000, rr_GB/s = 100\\.000 \\(2 x group 0's rate, bi: [^\n]*\n.*\nrail +single +4 +16384${vine_bw_measured} +50\\.000 +100\\.000\n.*exit status 0"
  --pattern rail --dir bi --n 2 --g 2 --k 2 --size 4KiB --iters 5
  --nic-bw 200Gb/s --ranks-per-nic 2 --nics 2)

# asymmetric uni, n=2, g=3, k=2, f_NIC = 25 GB/s, r = 2 NICs (p = ceil(3/2) =
# 2 derived): group 0 sends at packed 25 (one NIC), round-robin 50 (two); the
# receiving node's 3 ranks take packed 25 * 1.5 = 37.5 and round-robin
# 25 * 3 / 2 = 37.5 (NIC 0 serves ranks 0 and 2), which limits round-robin:
# the pattern 25 and 37.5.  6 messages of 2KiB.
vine_bwmodel_test(asymmetric 6
  "k = 2 active ranks per node \\(group of g = 3\\)\n#   packed, p = 2 ranks per NIC: +f_NIC [^\n]*= 25\\.000 GB/s per node and direction\n#   round-robin, r = 2 NICs per node: +f_NIC [^\n]*= 50\\.000 GB/s per node and direction\n#   the other groups move their bytes through all g = 3 ranks: packed 37\\.500, round-robin 37\\.500 GB/s per node and direction\n#   pattern [^\n]*packed_GB/s = 25\\.000, rr_GB/s = 37\\.500 [^\n]*round-robin: limited by the other groups' nodes\\)\n.*\nasymmetric +single +6 +12288${vine_bw_measured} +25\\.000 +37\\.500\n.*exit status 0"
  --pattern asymmetric --n 2 --g 3 --k 2 --size 2KiB --iters 5 --nic-bw 25 --nics 2)
