# MPI test tier (label mpi), issue 6: bcast bbs, Broadcast by Balanced
# Saturation on the graph VINE_BBS_GRAPH names, against MPI_Bcast:
# mpi.bcast_bbs.<graph>.np<n>.  The graphs have exactly n nodes (rank i is node
# i), so bbs must serve; the fallback test runs the 4x4 grid on 12 ranks, where
# it must not, and checks that VINE_VERBOSE says so.  The 16-rank runs are
# oversubscribed on small machines; each takes seconds.
#
# The tests are registered here with add_test rather than vine_mpi_test():
# the fragments are included in sorted order and this one comes before
# mpi.cmake, which defines that function.
if(VINE_SMPI)
  return()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/launcher.cmake)

add_executable(mpitest_bcast_bbs ${CMAKE_CURRENT_LIST_DIR}/test_bcast_bbs.c)
target_link_libraries(mpitest_bcast_bbs PRIVATE vine_mpitest)

# vine_bbs_mpi_test(name np env...) registers mpi.bcast_bbs.<name>.np<np>.
function(vine_bbs_mpi_test name np)
  set(test mpi.bcast_bbs.${name}.np${np})
  add_test(NAME ${test}
    COMMAND ${VINE_MPIRUN} ${VINE_MPIRUN_NP} ${np} ${MPIEXEC_PREFLAGS}
            $<TARGET_FILE:mpitest_bcast_bbs> ${MPIEXEC_POSTFLAGS})
  set_tests_properties(${test} PROPERTIES LABELS mpi TIMEOUT 300
    ENVIRONMENT "${VINE_MPI_TEST_ENV};${ARGN};VINE_TEST_NP=${np}")
endfunction()

set(vine_bbs_data ${CMAKE_CURRENT_SOURCE_DIR}/data/bbs)
vine_bbs_mpi_test(grid3x4 12 VINE_BBS_GRAPH=grid:3x4)
vine_bbs_mpi_test(grid4x4 16 VINE_BBS_GRAPH=grid:4x4)
vine_bbs_mpi_test(16k3 16 VINE_BBS_GRAPH=16k3)
vine_bbs_mpi_test(kite 7 VINE_BBS_GRAPH=edges:${vine_bbs_data}/kite.txt)
vine_bbs_mpi_test(seg_env.grid3x4 12 VINE_BBS_GRAPH=grid:3x4 VINE_SEGMENT_SIZE=1k)
vine_bbs_mpi_test(fallback.grid4x4 12 VINE_BBS_GRAPH=grid:4x4 VINE_TEST_BBS_FALLBACK=1
  VINE_VERBOSE=1)
# The verdict of the fallback run: the program's summary with no failure, and
# VINE_VERBOSE's line saying that bbs is excluded, in either order (stdout and
# stderr travel apart).  A pass expression replaces the exit status, so both
# must be there.
set(vine_bbs_said "algorithm 'bbs' is excluded by its restrictions")
set(vine_bbs_sum "bcast_bbs: [0-9]+ passed, 0 failed")
set_tests_properties(mpi.bcast_bbs.fallback.grid4x4.np12 PROPERTIES
  PASS_REGULAR_EXPRESSION "${vine_bbs_said}.*${vine_bbs_sum}|${vine_bbs_sum}.*${vine_bbs_said}"
  FAIL_REGULAR_EXPRESSION "ranks ran different")
