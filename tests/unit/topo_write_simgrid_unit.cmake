# Unit test of the SimGrid platform writer (src/topo/topo_write_simgrid.c):
# export -> read back -> the same graph, for generators, presets and the
# samples of tests/data/topo; the writer's and the explicit reader's errors.
if(NOT VINE_SMPI)
  add_executable(test_topo_write_simgrid ${CMAKE_CURRENT_LIST_DIR}/test_topo_write_simgrid.c)
  target_link_libraries(test_topo_write_simgrid PRIVATE vine_core_static)
  add_test(NAME unit.topo_write_simgrid
    COMMAND test_topo_write_simgrid ${CMAKE_CURRENT_LIST_DIR}/../data/topo)
  set_tests_properties(unit.topo_write_simgrid PROPERTIES LABELS unit TIMEOUT 120)
endif()
