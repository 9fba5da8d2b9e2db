# Unit test of the Bine arithmetic in src/coll/bine.h (BINE.md's vectors), no MPI.
if(NOT VINE_SMPI)
  add_executable(test_bine ${CMAKE_CURRENT_LIST_DIR}/test_bine.c)
  target_link_libraries(test_bine PRIVATE vine_core_static)
  add_test(NAME unit.bine COMMAND test_bine)
  set_tests_properties(unit.bine PROPERTIES LABELS unit TIMEOUT 120)
endif()
