# MPI test tier (label mpi), issue 8: every algorithm, the hierarchical ones
# included, against the MPI library's own collective on pretend hosts
# (VINE_TOPOLOGY_FAKE_HOSTS) that VINE_TOPOLOGY places on switches and
# groups, so that the level map is not flat: mpi.hier.<map>.<coll>.np<n>.
# VINE_TEST_HIER is the number of levels vine must find (the harness aborts
# otherwise), and the harness requires every admitted forced algorithm to
# serve, so the hierarchical algorithms really run.  After mpi.cmake in the
# sorted fragment order, so vine_mpi_test() is defined.
if(VINE_SMPI)
  return()
endif()

set(vine_hier_map VINE_TOPOLOGY=map:${CMAKE_CURRENT_SOURCE_DIR}/data/levels/mpi-hosts.map)
set(vine_hier_colls bcast reduce allreduce allgather gather scatter)

# vine_hier_test(name np colls env...) registers mpi.hier.<name>.<coll>.np<np>.
function(vine_hier_test name np colls)
  foreach(coll ${colls})
    vine_mpi_test(hier.${name}.${coll} PROGRAM ${coll} NPS ${np} ENV ${ARGN})
  endforeach()
endfunction()

# Four nodes of 2 ranks (hosts h0, h1, h2, h4), on three switches (s0 holds h0
# and h1) in two groups (g0 holds h0-h2): 3 levels, equal nodes, uneven
# switches and groups.  alltoall too, whose flat algorithms and auto must
# not mind a level map (the reduce-scatters, which have no hierarchical
# algorithm either, add nothing that alltoall does not check).
# Eight ranks on two cores are slow under MPICH (its idle ranks poll) and
# ASan: this case runs in the plain Open MPI build only; the smaller ones
# below run everywhere.
if(NOT VINE_SANITIZE AND NOT vine_mpi_flavor STREQUAL "mpich")
  vine_hier_test(three 8 "${vine_hier_colls};alltoall"
    ${vine_hier_map} VINE_TOPOLOGY_FAKE_HOSTS=list:h0,h0,h1,h1,h2,h2,h4,h4 VINE_TEST_HIER=3)
endif()
# Eight nodes of 2 ranks, nothing known above them: allreduce hier's Bine
# butterfly across the nodes runs its full three steps, where floating
# results must still come out bitwise the same on every rank (test_allreduce.c,
# run_wild).  Plain Open MPI build only, for the reason above.
if(NOT VINE_SANITIZE AND NOT vine_mpi_flavor STREQUAL "mpich")
  vine_mpi_test(hier.wide.allreduce PROGRAM allreduce NPS 16
    ENV VINE_TOPOLOGY_FAKE_HOSTS=block:2 VINE_TEST_HIER=1)
endif()
# Nodes of 1, 3 and 1 ranks (hosts h0, h1, h2) on two switches: uneven groups.
vine_hier_test(uneven 5 "${vine_hier_colls}"
  ${vine_hier_map} VINE_TOPOLOGY_FAKE_HOSTS=list:h0,h1,h1,h1,h2 VINE_TEST_HIER=2)
# Three nodes whose ranks are not consecutive, nothing known above them.
vine_hier_test(cyclic 6 "${vine_hier_colls}"
  VINE_TOPOLOGY_FAKE_HOSTS=list:h0,h1,h2,h0,h1,h2 VINE_TEST_HIER=1)
# One rank per node, nodes in pairs by a hostname rule.
vine_hier_test(rule 5 "${vine_hier_colls}"
  VINE_TOPOLOGY=block:2 VINE_TOPOLOGY_FAKE_HOSTS=block:1 VINE_TEST_HIER=1)
# VINE_REMAP: the flat bcast, reduce and allreduce algorithms on ranks in block
# order, on nodes whose ranks are not consecutive (3 even nodes; nodes of 1, 3
# and 1 ranks on two switches, block order 0 1 3 4 2).
foreach(coll bcast reduce allreduce)
  vine_mpi_test(hier.remap.cyclic.${coll} PROGRAM ${coll} NPS 6 ENV VINE_REMAP=1
    VINE_TOPOLOGY_FAKE_HOSTS=list:h0,h1,h2,h0,h1,h2 VINE_TEST_HIER=1)
  vine_mpi_test(hier.remap.uneven.${coll} PROGRAM ${coll} NPS 5 ENV VINE_REMAP=1
    ${vine_hier_map} VINE_TOPOLOGY_FAKE_HOSTS=list:h0,h1,h2,h1,h1 VINE_TEST_HIER=2)
endforeach()
