# The shared-memory family under stress (tests/mpi/test_shm.c, docs/shm.md):
# 1000 random calls forced to "shm" on two communicators, with the default
# region, a 4 KiB region (every large call pipelined in chunks), single copy
# forced off, and the segment turned off (every call must fall back).  The
# per-collective harnesses (mpi.<coll>.np*) check shm against MPI for every
# type, op and in-place case like every other algorithm.
if(VINE_SMPI)
  return()
endif()
vine_mpi_test(shm NPS 1 2 3 4 8)
vine_mpi_test(shm_small PROGRAM shm NPS 3 4 8 ENV VINE_SHM_BYTES=4KiB)
vine_mpi_test(shm_copy PROGRAM shm NPS 4 7 ENV VINE_SHM_SINGLE_COPY=0 VINE_SHM_BYTES=16KiB)
vine_mpi_test(shm_off PROGRAM shm NPS 3 ENV VINE_SHM=0 VINE_TEST_SHM_EXPECT=none
  VINE_TEST_SHM_CALLS=200)
# More ranks than VINE_SHM_BCAST_FLAT (32): the small bcast runs down the eager
# slots' tree (shm_common.c).  Fewer calls: 34 ranks share the machine's cores.
vine_mpi_test(shm_tree PROGRAM shm NPS 34 ENV VINE_TEST_SHM_CALLS=70)

# Room for the segments (test_shm_space.c, docs/shm.md): communicators made
# and kept until VINE_SHM_MAX is reached (world and one more fit in 3 MiB),
# and until a 64 MiB /dev/shm of the test's own is full (shm_space.sh mounts
# it in a private mount namespace; a skip, 77, where mounting is not
# allowed).  Before the room check Open MPI 4.1 hung there and MPICH's ranks
# died of SIGBUS.
vine_mpi_test(shm_space_max PROGRAM shm_space NPS 3 ENV VINE_SHM_MAX=3MiB VINE_TEST_SPACE=max:2)
set(test mpi.shm_space_room.np4)
add_test(NAME ${test}
  COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/shm_space.sh 64m --
          ${VINE_MPIRUN} ${VINE_MPIRUN_NP} 4 ${MPIEXEC_PREFLAGS}
          $<TARGET_FILE:mpitest_shm_space> ${MPIEXEC_POSTFLAGS})
set_tests_properties(${test} PROPERTIES LABELS mpi TIMEOUT 180 SKIP_RETURN_CODE 77
  ENVIRONMENT "${VINE_MPI_TEST_ENV};VINE_TEST_SPACE=room:24;VINE_TEST_NP=4")
