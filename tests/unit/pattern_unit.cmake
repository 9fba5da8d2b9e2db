# Unit test of the pattern matrices, generators and readers (src/bench/pattern.c)
# on the samples of tests/data/bench; no MPI.
if(NOT VINE_SMPI)
  add_executable(test_pattern ${CMAKE_CURRENT_LIST_DIR}/test_pattern.c)
  target_link_libraries(test_pattern PRIVATE vine_core_static)
  add_test(NAME unit.pattern COMMAND test_pattern ${CMAKE_CURRENT_LIST_DIR}/../data/bench)
  set_tests_properties(unit.pattern PROPERTIES LABELS unit TIMEOUT 60)
endif()
