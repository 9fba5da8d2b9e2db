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
