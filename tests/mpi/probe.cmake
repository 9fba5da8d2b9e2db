# MPI test tier (label mpi), issue 8: `vine-bench probe` (tools/bench_probe.c)
# on one machine with pretend hosts (VINE_TOPOLOGY_FAKE_HOSTS) placed on
# switches and groups by tests/data/levels/mpi-hosts.map: mpi.probe.<case>.np<n>.
# Each run writes a cost-model file that tests/mpi/probe_check.c loads with
# the loader of src/select/cost.h and whose number of message classes (the
# levels found plus the one above the top) it checks; a class without a
# pair of ranks must say that it kept the built-in parameters.  No measured
# value is asserted.
if(VINE_SMPI OR NOT TARGET vine-bench)
  return()
endif()
include(${CMAKE_CURRENT_LIST_DIR}/launcher.cmake)

add_executable(probe_check ${CMAKE_CURRENT_LIST_DIR}/probe_check.c)
target_link_libraries(probe_check PRIVATE vine_core_static)

# vine_probe_test(name np classes text env...): runs the probe through sh
# into a file of its own, then probe_check on that file.
function(vine_probe_test name np classes text)
  set(test mpi.probe.${name}.np${np})
  set(out ${CMAKE_CURRENT_BINARY_DIR}/probe_${name}.json)
  add_test(NAME ${test}
    COMMAND sh -c "out=$0 check=$1 n=$2 text=$3; shift 3; rm -f \"$out\" && \"$@\" && \"$check\" \"$out\" \"$n\" \"$text\""
            ${out} $<TARGET_FILE:probe_check> ${classes} ${text}
            ${VINE_MPIRUN} ${VINE_MPIRUN_NP} ${np} ${MPIEXEC_PREFLAGS}
            $<TARGET_FILE:vine-bench> ${MPIEXEC_POSTFLAGS}
            probe --out ${out} --bytes 64KiB --iters 5)
  set_tests_properties(${test} PROPERTIES LABELS mpi TIMEOUT 300
    ENVIRONMENT "${VINE_MPI_TEST_ENV};${ARGN}")
endfunction()

set(vine_probe_map VINE_TOPOLOGY=map:${CMAKE_CURRENT_SOURCE_DIR}/data/levels/mpi-hosts.map)
# Two ranks per host, 8 ranks: nodes, switches (the groups hold all): 3 classes.
vine_probe_test(map.block2 8 3 "pairs at once" ${vine_probe_map}
  VINE_TOPOLOGY_FAKE_HOSTS=block:2)
# A host per rank, 6 ranks: nodes of one rank (no class-0 pair), switches,
# groups: 4 classes.
vine_probe_test(map.block1 6 4 "no pair of ranks of this class" ${vine_probe_map}
  VINE_TOPOLOGY_FAKE_HOSTS=block:1)
# No VINE_TOPOLOGY: the pretend nodes only, 2 classes.
vine_probe_test(nodes 4 2 "pairs at once" VINE_TOPOLOGY_FAKE_HOSTS=block:2)
