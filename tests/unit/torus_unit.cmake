# Unit test of the torus coordinates in src/coll/torus.h and of the levels
# description torus:AxBxC, no MPI.
if(NOT VINE_SMPI)
  add_executable(test_torus ${CMAKE_CURRENT_LIST_DIR}/test_torus.c)
  target_link_libraries(test_torus PRIVATE vine_core_static)
  add_test(NAME unit.torus COMMAND test_torus)
  set_tests_properties(unit.torus PROPERTIES LABELS unit TIMEOUT 60)
endif()
