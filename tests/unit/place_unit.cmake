# Unit test of rank placement (src/topo/topo_place.c): layouts, seeded random
# allocations, hosts files (tests/data/topo), name lookup at 100,000 hosts; no MPI.
if(NOT VINE_SMPI)
  add_executable(test_place ${CMAKE_CURRENT_LIST_DIR}/test_place.c)
  target_link_libraries(test_place PRIVATE vine_core_static)
  add_test(NAME unit.place COMMAND test_place ${CMAKE_CURRENT_LIST_DIR}/../data/topo)
  set_tests_properties(unit.place PROPERTIES LABELS unit TIMEOUT 120)
endif()
