# Concurrent collectives from several threads (issue 22, docs/api.md
# "Threads"): test_threads.c under MPI_THREAD_MULTIPLE, 8 threads per rank,
# each on its own communicator, every collective checked against the MPI
# library's.  mpi.threads.npN calls vine_<coll>; mpi.threads_preload.npN is
# the same program calling MPI_<Coll> only, with libvine-mpi.so preloaded
# into the ranks (through env, so the launcher itself loads nothing).  Exit
# status 77, a skip, only when the MPI library lacks MPI_THREAD_MULTIPLE.
if(VINE_SMPI)
  return()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/launcher.cmake)

find_package(Threads REQUIRED)
# MPICH spins in its locks: oversubscribed at 3 ranks x 8 threads on 2 cores it took a
# minute for 24 iterations (Open MPI: 3 s), and still 100 s in CI with 8 iterations
# (the preloaded run also loses the launcher's yield shim, scripts/mpirun-mpich.sh,
# to its own LD_PRELOAD), so it runs 4 threads of 4 iterations.
set(vine_threads_env)
if(vine_mpi_flavor STREQUAL "mpich")
  set(vine_threads_env VINE_TEST_THREADS_ITERS=4 VINE_TEST_THREADS=4)
endif()
vine_mpi_test(threads NPS 2 3 ENV ${vine_threads_env})
target_link_libraries(mpitest_threads PRIVATE Threads::Threads)
set_tests_properties(mpi.threads.np2 mpi.threads.np3 PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 120)

add_executable(mpitest_threads_mpi ${CMAKE_CURRENT_LIST_DIR}/test_threads.c)
target_compile_definitions(mpitest_threads_mpi PRIVATE TEST_THREADS_MPI)
target_link_libraries(mpitest_threads_mpi PRIVATE MPI::MPI_C Threads::Threads ${CMAKE_DL_LIBS})
add_dependencies(mpitest_threads_mpi vine-mpi)
# Under the sanitizers the ASan runtime must be loaded first (tests/pmpi/pmpi.cmake).
set(vine_threads_preload $<TARGET_LINKER_FILE:vine-mpi>)
if(VINE_SANITIZE)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
    OUTPUT_VARIABLE vine_threads_asan OUTPUT_STRIP_TRAILING_WHITESPACE)
  set(vine_threads_preload "${vine_threads_asan}:${vine_threads_preload}")
endif()
foreach(np 2 3)
  set(test mpi.threads_preload.np${np})
  add_test(NAME ${test}
    COMMAND ${VINE_MPIRUN} ${VINE_MPIRUN_NP} ${np} ${MPIEXEC_PREFLAGS}
            env LD_PRELOAD=${vine_threads_preload} $<TARGET_FILE:mpitest_threads_mpi>
            ${MPIEXEC_POSTFLAGS})
  set_tests_properties(${test} PROPERTIES LABELS "mpi;pmpi" TIMEOUT 120 SKIP_RETURN_CODE 77
    ENVIRONMENT "${VINE_MPI_TEST_ENV};${vine_threads_env};VINE_TEST_NP=${np}")
endforeach()
