# MPI test tier (label mpi): vine-tune (tools/vine_tune.c, docs/vine-tune.md)
# under the launcher, judged by tune_check.sh.
#   mpi.tune.run.np2   allreduce, bcast and alltoall from 8 B to 4 KiB within a
#       90 s budget (about 1 s on two idle cores; a budget of 15 s ran out
#       under a loaded ctest -j2, skipping cases): exit 0, progress lines, the
#       summary with the model's lines, and a file that tune_check (loading it
#       with src/select/tuning.h's reader) finds complete: one rule per
#       collective on 2 ranks covering 8 B..4 KiB, and a model.  No measured
#       value is asserted.
#   mpi.tune.run_v.np3   allgatherv, scan and exscan the same way on 3 ranks
#       (rules on 3 ranks, and on 2: p/2 is 1, so p - 1 is the other size), at
#       most 20 timed iterations a case (200 took a minute under ctest -j2).
#   mpi.tune.usage_value.np2, mpi.tune.usage_out.np2   a bad value and a
#       missing --out: exit status 2 on every rank, the message, the usage,
#       and no file.
#   mpi.tune.usage_alltoallv.np2, mpi.tune.usage_gatherv.np2   the v
#       collectives vine-tune does not measure: the same, with the reason.
if(VINE_SMPI OR NOT TARGET vine-tune)
  return()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/launcher.cmake)

add_executable(tune_check ${CMAKE_CURRENT_LIST_DIR}/tune_check.c)
target_link_libraries(tune_check PRIVATE vine_core_static)

set(vine_tune_check sh ${CMAKE_CURRENT_LIST_DIR}/tune_check.sh)
set(vine_tune_exe ${MPIEXEC_PREFLAGS} $<TARGET_FILE:vine-tune> ${MPIEXEC_POSTFLAGS})

# vine_tune_test(name np mode [mode arguments] -- vine-tune arguments...)
function(vine_tune_test name np mode)
  set(test mpi.tune.${name}.np${np})
  add_test(NAME ${test}
    COMMAND ${vine_tune_check} ${mode} ${CMAKE_CURRENT_BINARY_DIR}/tune_${name} ${ARGN})
  set_tests_properties(${test} PROPERTIES LABELS mpi TIMEOUT 120
    ENVIRONMENT "${VINE_MPI_TEST_ENV}")
endfunction()

vine_tune_test(run 2 run $<TARGET_FILE:tune_check> 2 8 4096 allreduce,bcast,alltoall
  -- ${VINE_MPIRUN} ${VINE_MPIRUN_NP} 2 ${vine_tune_exe}
  --out t.json --budget 90 --max-size 4KiB --coll allreduce,bcast,alltoall --progress)
vine_tune_test(run_v 3 run $<TARGET_FILE:tune_check> 3 8 4096 allgatherv,scan,exscan
  -- ${VINE_MPIRUN} ${VINE_MPIRUN_NP} 3 ${vine_tune_exe}
  --out t.json --budget 90 --max-size 4KiB --max-iters 20 --coll allgatherv,scan,exscan --progress)
vine_tune_test(usage_alltoallv 2 usage "vine-tune: --coll alltoallv is not measured: each rank"
  -- ${VINE_MPIRUN} ${VINE_MPIRUN_NP} 2 ${vine_tune_exe} --out t.json --coll bcast,alltoallv)
vine_tune_test(usage_gatherv 2 usage "vine-tune: --coll gatherv is not measured: the ranks"
  -- ${VINE_MPIRUN} ${VINE_MPIRUN_NP} 2 ${vine_tune_exe} --out t.json --coll gatherv)
vine_tune_test(usage_value 2 usage "vine-tune: bad value for --budget"
  -- ${VINE_MPIRUN} ${VINE_MPIRUN_NP} 2 ${vine_tune_exe} --out t.json --budget -5)
vine_tune_test(usage_out 2 usage "vine-tune: --out FILE is required"
  -- ${VINE_MPIRUN} ${VINE_MPIRUN_NP} 2 ${vine_tune_exe} --budget 10)

# mpi.tune.follow.np2: auto, given the file mpi.tune.run.np2 wrote as
# VINE_TUNING_FILE, serves every range of its rules for 2 ranks with the
# range's algorithm and matches the MPI library (test_tune_follow.c).
add_executable(mpitest_tune_follow ${CMAKE_CURRENT_LIST_DIR}/test_tune_follow.c)
target_link_libraries(mpitest_tune_follow PRIVATE vine_mpitest)
set(vine_tune_file ${CMAKE_CURRENT_BINARY_DIR}/tune_run/t.json)
add_test(NAME mpi.tune.follow.np2
  COMMAND ${VINE_MPIRUN} ${VINE_MPIRUN_NP} 2 ${MPIEXEC_PREFLAGS}
          $<TARGET_FILE:mpitest_tune_follow> ${vine_tune_file} ${MPIEXEC_POSTFLAGS})
set_tests_properties(mpi.tune.follow.np2 PROPERTIES LABELS mpi TIMEOUT 120
  ENVIRONMENT "${VINE_MPI_TEST_ENV};VINE_TUNING_FILE=${vine_tune_file}"
  FIXTURES_REQUIRED vine_tune_file)
set_tests_properties(mpi.tune.run.np2 PROPERTIES FIXTURES_SETUP vine_tune_file)

# mpi.tune.follow_v.np3: the same for the file of mpi.tune.run_v.np3
# (allgatherv with equal blocks, scan and exscan).
set(vine_tune_file_v ${CMAKE_CURRENT_BINARY_DIR}/tune_run_v/t.json)
add_test(NAME mpi.tune.follow_v.np3
  COMMAND ${VINE_MPIRUN} ${VINE_MPIRUN_NP} 3 ${MPIEXEC_PREFLAGS}
          $<TARGET_FILE:mpitest_tune_follow> ${vine_tune_file_v} ${MPIEXEC_POSTFLAGS})
set_tests_properties(mpi.tune.follow_v.np3 PROPERTIES LABELS mpi TIMEOUT 120
  ENVIRONMENT "${VINE_MPI_TEST_ENV};VINE_TUNING_FILE=${vine_tune_file_v}"
  FIXTURES_REQUIRED vine_tune_file_v)
set_tests_properties(mpi.tune.run_v.np3 PROPERTIES FIXTURES_SETUP vine_tune_file_v)

# mpi.tune.v_rules.np{2,3,4}: auto follows hand-written rules of allgatherv
# (by the mean block, alike on every rank, with blocks of very different
# sizes), scan and exscan, and serves alltoallv by a rule's first range at
# any size (test_tune_v.c).
add_executable(mpitest_tune_v ${CMAKE_CURRENT_LIST_DIR}/test_tune_v.c)
target_link_libraries(mpitest_tune_v PRIVATE vine_mpitest)
foreach(np 2 3 4)
  add_test(NAME mpi.tune.v_rules.np${np}
    COMMAND ${VINE_MPIRUN} ${VINE_MPIRUN_NP} ${np} ${MPIEXEC_PREFLAGS}
            $<TARGET_FILE:mpitest_tune_v> ${MPIEXEC_POSTFLAGS})
  set_tests_properties(mpi.tune.v_rules.np${np} PROPERTIES LABELS mpi TIMEOUT 120
    ENVIRONMENT "${VINE_MPI_TEST_ENV}")
endforeach()
