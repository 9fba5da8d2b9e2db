# MPI test tier (label mpi), issue 8: discovering the levels of a
# communicator (src/api/levels_mpi.c) on one machine, with pretend hosts
# (VINE_TOPOLOGY_FAKE_HOSTS) placed by VINE_TOPOLOGY on switches and groups:
# mpi.levels.<case>.np<n>.  tests/mpi/test_levels.c checks the map found on
# MPI_COMM_WORLD and on split communicators against one it works out itself
# (VINE_TEST_LEVELS=expect:D1,...: host hI in group I / Dj at level j), or
# that every rank fails alike with the message expected (error:TEXT).
#
# The tests are registered here with add_test rather than vine_mpi_test():
# the fragments are included in sorted order and this one comes before
# mpi.cmake, which defines that function.
if(VINE_SMPI)
  return()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/launcher.cmake)

add_executable(mpitest_levels ${CMAKE_CURRENT_LIST_DIR}/test_levels.c)
target_link_libraries(mpitest_levels PRIVATE vine)

# vine_levels_mpi_test(name np env...) registers mpi.levels.<name>.np<np>.
function(vine_levels_mpi_test name np)
  set(test mpi.levels.${name}.np${np})
  add_test(NAME ${test}
    COMMAND ${VINE_MPIRUN} ${VINE_MPIRUN_NP} ${np} ${MPIEXEC_PREFLAGS}
            $<TARGET_FILE:mpitest_levels> ${MPIEXEC_POSTFLAGS})
  set_tests_properties(${test} PROPERTIES LABELS mpi TIMEOUT 300
    ENVIRONMENT "${VINE_MPI_TEST_ENV};${ARGN};VINE_TEST_NP=${np}")
endfunction()

set(vine_levels_data ${CMAKE_CURRENT_SOURCE_DIR}/data/levels)
set(vine_levels_map VINE_TOPOLOGY=map:${vine_levels_data}/mpi-hosts.map)
# A host per rank: switches of 2 ranks, groups of 4.
vine_levels_mpi_test(map.block1 12 ${vine_levels_map} VINE_TOPOLOGY_FAKE_HOSTS=block:1
  VINE_TEST_LEVELS=expect:2,4)
# Two ranks per host; 8 ranks: the group level holds all ranks and is dropped.
vine_levels_mpi_test(map.block2 12 ${vine_levels_map} VINE_TOPOLOGY_FAKE_HOSTS=block:2
  VINE_TEST_LEVELS=expect:2,4)
vine_levels_mpi_test(map.block3 8 ${vine_levels_map} VINE_TOPOLOGY_FAKE_HOSTS=block:3
  VINE_TEST_LEVELS=expect:2,4)
# Uneven hosts of 1, 3, 5 and 3 (then 7) ranks.
vine_levels_mpi_test(map.uneven 12 ${vine_levels_map} VINE_TOPOLOGY_FAKE_HOSTS=sizes:1,3,5,7
  VINE_TEST_LEVELS=expect:2,4)
vine_levels_mpi_test(map.uneven 9 ${vine_levels_map} VINE_TOPOLOGY_FAKE_HOSTS=sizes:1,3,5,7
  VINE_TEST_LEVELS=expect:2,4)
# The same placement from a file detected by its content, a Slurm
# topology.conf (its core switch separates no ranks) and a hostname rule.
vine_levels_mpi_test(detect 10 VINE_TOPOLOGY=${vine_levels_data}/mpi-hosts.map
  VINE_TOPOLOGY_FAKE_HOSTS=block:1 VINE_TEST_LEVELS=expect:2,4)
vine_levels_mpi_test(slurm 11 VINE_TOPOLOGY=slurm:${vine_levels_data}/mpi-slurm.conf
  VINE_TOPOLOGY_FAKE_HOSTS=sizes:1,2 VINE_TEST_LEVELS=expect:2,4,24)
vine_levels_mpi_test(rule 12 VINE_TOPOLOGY=block:2,3 VINE_TOPOLOGY_FAKE_HOSTS=block:1
  VINE_TEST_LEVELS=expect:2,6)
# A torus of the nodes by their numbers (issue 23): lines of 2 nodes in a 3 x 2
# torus; the map carries the torus flag (test_levels.c checks it on every map).
vine_levels_mpi_test(torus 6 VINE_TOPOLOGY=torus:3x2 VINE_TOPOLOGY_FAKE_HOSTS=block:1
  VINE_TEST_LEVELS=expect:2)
vine_levels_mpi_test(torus.block2 8 VINE_TOPOLOGY=torus:2x2 VINE_TOPOLOGY_FAKE_HOSTS=block:2
  VINE_TEST_LEVELS=expect:2)
# No VINE_TOPOLOGY: the nodes only, pretend or real.
vine_levels_mpi_test(flat.fake 8 VINE_TOPOLOGY_FAKE_HOSTS=block:3 VINE_TEST_LEVELS=flat)
vine_levels_mpi_test(flat 4 VINE_TEST_LEVELS=flat)
# Errors, the same on every rank: groups that do not nest, a host the map
# lacks, a malformed file (named with its line), a bad pretend-host list.
vine_levels_mpi_test(error.nonest 8 VINE_TOPOLOGY=map:${vine_levels_data}/mpi-nonest.map
  VINE_TOPOLOGY_FAKE_HOSTS=block:1
  "VINE_TEST_LEVELS=error:groups do not nest: ranks 0 (host h0) and 1 (host h1) share group s0 at level 1 but are in groups g0 and g9 at level 2")
vine_levels_mpi_test(error.fake_spec 8 ${vine_levels_map} VINE_TOPOLOGY_FAKE_HOSTS=block:4,
  "VINE_TEST_LEVELS=error:expected block:K")
vine_levels_mpi_test(error.unknown_host 8
  VINE_TOPOLOGY=map:${vine_levels_data}/map-good.map VINE_TOPOLOGY_FAKE_HOSTS=block:1
  "VINE_TEST_LEVELS=error:map-good.map: host h0 is not listed (rank 0)")
vine_levels_mpi_test(error.malformed 8 VINE_TOPOLOGY=map:${vine_levels_data}/map-bad-count.map
  "VINE_TEST_LEVELS=error:map-bad-count.map:3: 1 groups, but line 2 names 2")
vine_levels_mpi_test(error.slurm 8 VINE_TOPOLOGY=${vine_levels_data}/slurm-bad.conf
  "VINE_TEST_LEVELS=error:slurm-bad.conf:3: unknown key Nodez=")
vine_levels_mpi_test(error.torus 8 VINE_TOPOLOGY=torus:2x3 VINE_TOPOLOGY_FAKE_HOSTS=block:1
  "VINE_TEST_LEVELS=error:torus:2x3: host h6: node number 6 lies outside the torus of 6 nodes")
vine_levels_mpi_test(error.fake_list 8 ${vine_levels_map} VINE_TOPOLOGY_FAKE_HOSTS=list:h0,h1
  "VINE_TEST_LEVELS=error:rank 2: VINE_TOPOLOGY_FAKE_HOSTS=list:h0,h1: no name for the process of world rank 2")
