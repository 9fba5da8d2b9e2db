# MPI test tier (label mpi): every vine algorithm against the MPI library's own
# collective under mpirun on 1 to 8 ranks (oversubscribed on small machines).
# SimGrid builds register the smpi tier instead.
if(VINE_SMPI)
  return()
endif()

# scripts/mpirun.sh sets what Open MPI needs to run as root and oversubscribed;
# the environment below does the same for a bare mpirun.
if(EXISTS ${CMAKE_SOURCE_DIR}/scripts/mpirun.sh)
  set(VINE_MPIRUN ${CMAKE_SOURCE_DIR}/scripts/mpirun.sh)
  set(VINE_MPIRUN_NP -np)
else()
  set(VINE_MPIRUN ${MPIEXEC_EXECUTABLE})
  set(VINE_MPIRUN_NP ${MPIEXEC_NUMPROC_FLAG})
endif()
set(VINE_MPI_TEST_ENV
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1)

add_library(vine_mpitest STATIC ${CMAKE_CURRENT_LIST_DIR}/mpitest.c)
target_link_libraries(vine_mpitest PUBLIC vine)

# vine_mpi_test(name [PROGRAM program] [NPS n...] [ENV var=value...]) registers
# mpi.<name>.np<n> running test_<program>.c (default: test_<name>.c) on n ranks.
function(vine_mpi_test name)
  cmake_parse_arguments(ARG "" "PROGRAM" "NPS;ENV" ${ARGN})
  if(NOT ARG_PROGRAM)
    set(ARG_PROGRAM ${name})
  endif()
  if(NOT ARG_NPS)
    set(ARG_NPS 1 2 3 4 5 6 7 8)
  endif()
  set(target mpitest_${ARG_PROGRAM})
  if(NOT TARGET ${target})
    add_executable(${target} ${CMAKE_CURRENT_LIST_DIR}/test_${ARG_PROGRAM}.c)
    target_link_libraries(${target} PRIVATE vine_mpitest)
  endif()
  foreach(np ${ARG_NPS})
    set(test mpi.${name}.np${np})
    add_test(NAME ${test}
      COMMAND ${VINE_MPIRUN} ${VINE_MPIRUN_NP} ${np} ${MPIEXEC_PREFLAGS}
              $<TARGET_FILE:${target}> ${MPIEXEC_POSTFLAGS})
    set_tests_properties(${test} PROPERTIES LABELS mpi TIMEOUT 300
      ENVIRONMENT "${VINE_MPI_TEST_ENV};${ARG_ENV}")
  endforeach()
endfunction()

foreach(coll bcast reduce allreduce allgather reduce_scatter_block reduce_scatter)
  vine_mpi_test(${coll})
endforeach()
vine_mpi_test(errors NPS 1 2 3 4 7 8)

# Unknown names in VINE_<COLL>_ALGORITHM must make the collectives fail with
# MPI_ERR_ARG; known names must be obeyed.
set(VINE_ENV_BAD)
set(VINE_ENV_GOOD
  VINE_BCAST_ALGORITHM=linear VINE_REDUCE_ALGORITHM=rabenseifner
  VINE_ALLREDUCE_ALGORITHM=ring VINE_ALLGATHER_ALGORITHM=bruck
  VINE_REDUCE_SCATTER_ALGORITHM=pairwise VINE_REDUCE_SCATTER_BLOCK_ALGORITHM=recursive_doubling)
foreach(coll BCAST REDUCE ALLREDUCE ALLGATHER REDUCE_SCATTER REDUCE_SCATTER_BLOCK)
  list(APPEND VINE_ENV_BAD VINE_${coll}_ALGORITHM=no_such_algorithm)
endforeach()
vine_mpi_test(env_unknown PROGRAM env NPS 1 3 4 ENV ${VINE_ENV_BAD})
vine_mpi_test(env_known PROGRAM env NPS 1 3 4 ENV ${VINE_ENV_GOOD})
