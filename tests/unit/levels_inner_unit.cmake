# Unit test of the levels inside the node (issue 18, no MPI): maps with a
# node level above level 0, the registry's choice of map, VINE_NODE_LEVELS
# and rank 0's plan of the levels inside the nodes (src/coll/levels_inner.h).
if(NOT VINE_SMPI)
  add_executable(test_levels_inner ${CMAKE_CURRENT_LIST_DIR}/test_levels_inner.c)
  target_link_libraries(test_levels_inner PRIVATE vine_core_static)
  add_test(NAME unit.levels_inner COMMAND test_levels_inner)
  set_tests_properties(unit.levels_inner PROPERTIES LABELS unit TIMEOUT 120)
endif()
