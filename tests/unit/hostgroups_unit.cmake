# Unit test of host groups (src/topo/hostgroups.c): the VINE_TOPOLOGY maps,
# Slurm and ibnetdiscover files and hostname rules behind the levels of
# hierarchical collectives, on the samples of tests/data/levels; no MPI.
if(NOT VINE_SMPI)
  add_executable(test_hostgroups ${CMAKE_CURRENT_LIST_DIR}/test_hostgroups.c)
  target_link_libraries(test_hostgroups PRIVATE vine_core_static)
  add_test(NAME unit.hostgroups COMMAND test_hostgroups ${CMAKE_CURRENT_LIST_DIR}/../data/levels)
  set_tests_properties(unit.hostgroups PROPERTIES LABELS unit TIMEOUT 120)
endif()
