# MPI test tier (label mpi), issue 23: the torus algorithms bucket,
# bine_torus, bine_torus_multiport and swing against the MPI library's own
# collectives on pretend tori, the
# per-collective harnesses (every type, op, count and root, in place)
# limited to them by VINE_TEST_ALGOS: mpi.torus.<shape>.<coll>.np<n>.  Pretend
# hosts (VINE_TOPOLOGY_FAKE_HOSTS) placed by VINE_TOPOLOGY give a uniform
# level map, which src/coll/torus.h reads as a torus: 8 ranks, hosts of 2 as
# a 2 x 2 torus of hosts (torus:2x2, which also marks the map as a torus
# network, so the multiport algorithms split their data), are 2 x 2 x 2; 6 ranks on hosts of 3
# are 2 x 3; 6 ranks dealt round-robin over 3 hosts are 3 x 2 out of torus
# order (the reduce-scatters and allgathers reorder their blocks).
# VINE_TEST_HIER makes the harness abort unless vine finds those levels, and
# the harness requires every admitted forced algorithm to serve, so the
# torus algorithms really run on the torus.  The 1-D forms (no map) run on 5
# ranks (mpi.torus.flat.*): the other MPI tests leave the torus algorithms
# out (tests/mpi/mpitest.c), which would add a quarter to allreduce's.  After mpi.cmake in the sorted fragment order,
# so vine_mpi_test() is defined.
if(VINE_SMPI)
  return()
endif()

set(vine_torus_mpi_colls bcast reduce allreduce allgather reduce_scatter reduce_scatter_block)
set(vine_torus_mpi_algos VINE_TEST_ALGOS=bucket,bine_torus,bine_torus_multiport,swing)

# vine_torus_mpi(name np env...) registers mpi.torus.<name>.<coll>.np<np>.
function(vine_torus_mpi name np)
  foreach(coll ${vine_torus_mpi_colls})
    vine_mpi_test(torus.${name}.${coll} PROGRAM ${coll} NPS ${np}
      ENV ${vine_torus_mpi_algos} ${ARGN})
  endforeach()
endfunction()

# Eight ranks on two cores are slow under MPICH (its idle ranks poll) and
# ASan: the 2 x 2 x 2 case runs in the plain Open MPI build only.
if(NOT VINE_SANITIZE AND NOT vine_mpi_flavor STREQUAL "mpich")
  vine_torus_mpi(2x2x2 8 VINE_TOPOLOGY_FAKE_HOSTS=block:2 VINE_TOPOLOGY=torus:2x2 VINE_TEST_HIER=2)
endif()
vine_torus_mpi(2x3 6 VINE_TOPOLOGY_FAKE_HOSTS=block:3 VINE_TEST_HIER=1)
vine_torus_mpi(flat 5)
# A running job's torus from VINE_TOPOLOGY=torus: (2 pretend nodes of 2 ranks in
# a ring of 2: a 2 x 2 torus with the map's torus flag, on which the multiport
# allreduce runs its parts side by side), allreduce only, in every build.
vine_mpi_test(torus.env.allreduce PROGRAM allreduce NPS 4 ENV ${vine_torus_mpi_algos}
  VINE_TOPOLOGY_FAKE_HOSTS=block:2 VINE_TOPOLOGY=torus:2 VINE_TEST_HIER=1)
vine_torus_mpi(cyclic 6 VINE_TOPOLOGY_FAKE_HOSTS=list:h0,h1,h2,h0,h1,h2 VINE_TEST_HIER=1)
