# Unit test of the rank arithmetic in src/coll/ranks.h, no MPI.
if(NOT VINE_SMPI)
  add_executable(test_ranks ${CMAKE_CURRENT_LIST_DIR}/test_ranks.c)
  target_link_libraries(test_ranks PRIVATE vine_core_static)
  add_test(NAME unit.ranks COMMAND test_ranks)
  set_tests_properties(unit.ranks PROPERTIES LABELS unit TIMEOUT 120)
endif()
