# Unit test of the topology generators, presets and spec parser (src/topo), no MPI.
if(NOT VINE_SMPI)
  add_executable(test_topo_gen ${CMAKE_CURRENT_LIST_DIR}/test_topo_gen.c)
  target_link_libraries(test_topo_gen PRIVATE vine_core_static)
  add_test(NAME unit.topo_gen COMMAND test_topo_gen)
  set_tests_properties(unit.topo_gen PROPERTIES LABELS unit TIMEOUT 120)
endif()
