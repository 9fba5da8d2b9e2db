# MPI test tier (label mpi): every collective and algorithm with derived
# datatypes (holes, padding, shifted lower bounds, user ops, mixed send and
# receive types) against the MPI library's own collectives; one test per
# collective and rank count, mpi.dtype.<coll>.np<n>.  SimGrid builds skip it.
if(VINE_SMPI)
  return()
endif()

# The launcher (VINE_MPIRUN, VINE_MPIRUN_NP, VINE_MPI_TEST_ENV): Open MPI's or
# MPICH's, as launcher.cmake picks it.
include(${CMAKE_CURRENT_LIST_DIR}/launcher.cmake)

# vine_mpitest (the shared harness) is defined in mpi.cmake; CMake resolves
# the name when it generates, so the order of the fragments does not matter.
add_executable(mpitest_dtype ${CMAKE_CURRENT_LIST_DIR}/test_dtype.c)
target_link_libraries(mpitest_dtype PRIVATE vine_mpitest)

foreach(coll bcast reduce allreduce allgather reduce_scatter_block reduce_scatter)
  foreach(np 1 2 3 4 5 ${VINE_MPI_NP8})
    set(test mpi.dtype.${coll}.np${np})
    add_test(NAME ${test}
      COMMAND ${VINE_MPIRUN} ${VINE_MPIRUN_NP} ${np} ${MPIEXEC_PREFLAGS}
              $<TARGET_FILE:mpitest_dtype> ${MPIEXEC_POSTFLAGS} ${coll})
    set_tests_properties(${test} PROPERTIES LABELS mpi TIMEOUT 300
      ENVIRONMENT "${VINE_MPI_TEST_ENV};VINE_TEST_NP=${np}")
  endforeach()
endforeach()
