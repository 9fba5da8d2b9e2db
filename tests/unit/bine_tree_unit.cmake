# Unit test of the pruned Bine tree in src/coll/phase_bine_tree.h, no MPI.
if(NOT VINE_SMPI)
  add_executable(test_bine_tree ${CMAKE_CURRENT_LIST_DIR}/test_bine_tree.c)
  target_link_libraries(test_bine_tree PRIVATE vine_core_static)
  add_test(NAME unit.bine_tree COMMAND test_bine_tree)
  set_tests_properties(unit.bine_tree PROPERTIES LABELS unit TIMEOUT 120)
endif()
