# Unit test of the topology readers and hostlists (src/topo/topo_read_*.c,
# hostlist.c) on the samples of tests/data/topo, with a fuzz pass; no MPI.
if(NOT VINE_SMPI)
  add_executable(test_topo_read ${CMAKE_CURRENT_LIST_DIR}/test_topo_read.c)
  target_link_libraries(test_topo_read PRIVATE vine_core_static)
  add_test(NAME unit.topo_read COMMAND test_topo_read ${CMAKE_CURRENT_LIST_DIR}/../data/topo)
  set_tests_properties(unit.topo_read PROPERTIES LABELS unit TIMEOUT 120)
endif()
