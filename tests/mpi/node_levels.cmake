# MPI test tier (label mpi), issue 18: the levels inside the node (NUMA
# domains, packages, shared caches; src/api/levels_hwloc.c) on a pretend
# machine: hwloc reads HWLOC_SYNTHETIC, the ranks pretend to be bound in it
# (VINE_TOPOLOGY_FAKE_BIND) and may live on pretend hosts.
# tests/mpi/test_node_levels.c checks the map found on MPI_COMM_WORLD and
# two split communicators against VINE_TEST_INNER, then the hierarchical
# algorithms, allreduce hier_shm and the shm family against MPI on it:
# mpi.node_levels.<case>.np<n>.  A build without hwloc checks that it says so.
if(VINE_SMPI)
  return()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/launcher.cmake)

add_executable(mpitest_node_levels ${CMAKE_CURRENT_LIST_DIR}/test_node_levels.c)
target_link_libraries(mpitest_node_levels PRIVATE vine)

# vine_node_levels_test(name np env...) registers mpi.node_levels.<name>.np<np>.
function(vine_node_levels_test name np)
  set(test mpi.node_levels.${name}.np${np})
  add_test(NAME ${test}
    COMMAND ${VINE_MPIRUN} ${VINE_MPIRUN_NP} ${np} ${MPIEXEC_PREFLAGS}
            $<TARGET_FILE:mpitest_node_levels> ${MPIEXEC_POSTFLAGS})
  set_tests_properties(${test} PROPERTIES LABELS mpi TIMEOUT 300
    ENVIRONMENT "${VINE_MPI_TEST_ENV};${ARGN};VINE_TEST_NP=${np}")
endfunction()

if(NOT VINE_HAVE_HWLOC)
  vine_node_levels_test(nohwloc 2 VINE_NODE_LEVELS=all VINE_TEST_INNER=none
    "VINE_TEST_INNER_TEXT=nodes|no levels inside the nodes: built without hwloc")
  return()
endif()

# Two packages of two NUMA nodes, each with its L3 and two cores: one rank
# per core on one node.  NUMA and cache give the same groups (one level),
# the packages a second; the node map is flat, so only the algorithms that
# take any number of levels run hierarchically.
set(vine_synth_numa "HWLOC_SYNTHETIC=pack:2 numa:2 l3:1 core:2 pu:1")
vine_node_levels_test(numa 8 ${vine_synth_numa} VINE_NODE_LEVELS=all
  VINE_TOPOLOGY_FAKE_BIND=block:1 "VINE_TEST_INNER=0,0,1,1,2,2,3,3/0,0,0,0,1,1,1,1"
  "VINE_TEST_INNER_TEXT=inside the nodes: numa=cache (4 groups), package (2 groups)")
# Only what VINE_NODE_LEVELS asks for.
vine_node_levels_test(numa_only 8 ${vine_synth_numa} VINE_NODE_LEVELS=numa
  VINE_TOPOLOGY_FAKE_BIND=block:1 "VINE_TEST_INNER=0,0,1,1,2,2,3,3"
  "VINE_TEST_INNER_TEXT=inside the nodes: numa (4 groups)")
# Two pretend hosts of 4 ranks, two cores per rank, on one package of two
# NUMA nodes with two L3 each: NUMA splits each host in two, the package is
# the host, each rank has its own L3.  The node map has locality too.
vine_node_levels_test(hosts 8 "HWLOC_SYNTHETIC=pack:1 numa:2 l3:2 core:2 pu:1"
  VINE_NODE_LEVELS=all VINE_TOPOLOGY_FAKE_HOSTS=block:4 VINE_TOPOLOGY_FAKE_BIND=block:2
  "VINE_TEST_INNER=0,0,1,1,2,2,3,3"
  "VINE_TEST_INNER_TEXT=inside the nodes: numa (4 groups)|left out: package (the same groups as the nodes), cache (one rank each)")
# Each rank bound to a whole package: NUMA is left out for every rank, the
# packages (ranks 0 and 2, 1 and 3: not consecutive) stay.
vine_node_levels_test(package 4 ${vine_synth_numa} VINE_NODE_LEVELS=all
  VINE_TOPOLOGY_FAKE_BIND=block:4 "VINE_TEST_INNER=0,1,0,1"
  "VINE_TEST_INNER_TEXT=inside the nodes: package (2 groups)|left out: numa (rank 0 is not bound inside one), cache (rank 0 is not bound inside one)")
# Unbound ranks, and no request at all: no level inside the node.
vine_node_levels_test(unbound 4 ${vine_synth_numa} VINE_NODE_LEVELS=all
  VINE_TOPOLOGY_FAKE_BIND=all VINE_TEST_INNER=none
  "VINE_TEST_INNER_TEXT=no levels inside the nodes: numa (rank 0 is not bound inside one), package (rank 0 is not bound inside one), cache (rank 0 is not bound inside one)")
vine_node_levels_test(off 4 ${vine_synth_numa} VINE_TOPOLOGY_FAKE_BIND=block:1
  VINE_TEST_INNER=none "VINE_TEST_INNER_TEXT=flat|!inside the nodes")
# Malformed settings fail every collective alike.
vine_node_levels_test(error.value 3 VINE_NODE_LEVELS=numa,socket
  "VINE_TEST_INNER=error:VINE_NODE_LEVELS=numa,socket: expected none, all or a list of numa, package, cache")
vine_node_levels_test(error.bind 3 VINE_NODE_LEVELS=all VINE_TOPOLOGY_FAKE_BIND=block:x
  "VINE_TEST_INNER=error:VINE_TOPOLOGY_FAKE_BIND=block:x: expected block:K or all")
