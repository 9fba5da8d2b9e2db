# The hierarchical shm algorithms on pretend nodes (tests/mpi/test_shm_hier.c,
# docs/hierarchical.md): bcast and reduce hier_shm, gather and scatter
# leader_shm, allreduce hier_shm, mixed with flat shm calls, random calls
# checked against the MPI library.  Nodes of 2 (4 and 8 ranks), nodes of 3,
# 3 and 1 (7 ranks: allreduce hier_shm must fall back, the rooted ones
# serve), nodes whose ranks are not consecutive with a 4 KiB region (the
# node phases pipelined in chunks), nodes of 3, 2 and 1 whose ranks are not
# consecutive (gather and scatter leader_shm carry units of three sizes and
# reorder at the root), three levels, and the segment off (nothing may
# serve).  The per-collective harnesses run these algorithms
# too, with every type, root and in-place form, on the pretend nodes of
# mpi.hier.* (mpi_hier.cmake).  After mpi.cmake in the sorted fragment
# order, so vine_mpi_test() is defined.
if(VINE_SMPI)
  return()
endif()
set(vine_shm_hier_map
  VINE_TOPOLOGY=map:${CMAKE_CURRENT_SOURCE_DIR}/data/levels/mpi-hosts.map)
vine_mpi_test(shm_hier.block2 PROGRAM shm_hier NPS 4 8
  ENV VINE_TOPOLOGY_FAKE_HOSTS=block:2 VINE_TEST_HIER=1)
vine_mpi_test(shm_hier.block3 PROGRAM shm_hier NPS 7
  ENV VINE_TOPOLOGY_FAKE_HOSTS=block:3 VINE_TEST_HIER=1 VINE_TEST_SHM_HIER_CALLS=250)
vine_mpi_test(shm_hier.cyclic PROGRAM shm_hier NPS 6
  ENV VINE_TOPOLOGY_FAKE_HOSTS=list:h0,h1,h2,h0,h1,h2 VINE_TEST_HIER=1 VINE_SHM_BYTES=4KiB)
vine_mpi_test(shm_hier.uneven PROGRAM shm_hier NPS 6
  ENV VINE_TOPOLOGY_FAKE_HOSTS=list:h0,h1,h0,h2,h1,h0 VINE_TEST_HIER=1 VINE_TEST_SHM_HIER_CALLS=200)
vine_mpi_test(shm_hier.three PROGRAM shm_hier NPS 8
  ENV ${vine_shm_hier_map} VINE_TOPOLOGY_FAKE_HOSTS=list:h0,h0,h1,h1,h2,h2,h4,h4
      VINE_TEST_HIER=3 VINE_TEST_SHM_HIER_CALLS=250)
vine_mpi_test(shm_hier.off PROGRAM shm_hier NPS 4
  ENV VINE_SHM=0 VINE_TOPOLOGY_FAKE_HOSTS=block:2 VINE_TEST_HIER=1 VINE_TEST_SHM_HIER_CALLS=150)
