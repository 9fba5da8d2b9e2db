# The MPI 4 sessions model alone (test_sessions.c, docs/api.md "Sessions"):
# a program that never calls MPI_Init, so that MPI_COMM_WORLD and
# MPI_COMM_SELF do not exist, linked with -lvine-mpi; every collective
# against the MPI library's own.  Where MPI's header is MPI 4 (MPICH 4.0;
# Open MPI 4.1's says 3.1 and has no sessions).  Also with VINE_VERBOSE and
# VINE_PROGRESS_THREAD=1 (both speak without MPI_COMM_WORLD; the thread is
# refused), and with pretend hosts (named by the rank in the communicator).
if(VINE_SMPI OR MPI_C_VERSION_MAJOR LESS 4)
  return()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/launcher.cmake)

add_executable(mpitest_sessions ${CMAKE_CURRENT_LIST_DIR}/test_sessions.c)
# vine-mpi first, so that the program's MPI_<Coll> bind to it.
target_link_libraries(mpitest_sessions PRIVATE vine-mpi vine MPI::MPI_C)

function(vine_sessions_test name np)
  set(test mpi.${name}.np${np})
  add_test(NAME ${test}
    COMMAND ${VINE_MPIRUN} ${VINE_MPIRUN_NP} ${np} ${MPIEXEC_PREFLAGS}
            $<TARGET_FILE:mpitest_sessions> ${MPIEXEC_POSTFLAGS})
  set_tests_properties(${test} PROPERTIES LABELS mpi TIMEOUT 300
    ENVIRONMENT "${VINE_MPI_TEST_ENV};${ARGN}")
endfunction()
# Not on 1 rank: there MPICH 4.0.2 alone crashes in its progress engine
# (MPI_Request_free of any request, MPI_Win_allocate_shared) under sessions.
vine_sessions_test(sessions 2)
vine_sessions_test(sessions 4)
vine_sessions_test(sessions_verbose 3 VINE_VERBOSE=1 VINE_PROGRESS_THREAD=1)
vine_sessions_test(sessions_hosts 4 VINE_TOPOLOGY_FAKE_HOSTS=block:2)
