# Unit test of vine-bench's result files (src/bench/results.h): JSON and CSV
# written, read back and compared field by field; malformed files refused.
# No MPI.  The files go to a directory of the build tree.
if(NOT VINE_SMPI)
  add_executable(test_results ${CMAKE_CURRENT_LIST_DIR}/test_results.c)
  target_link_libraries(test_results PRIVATE vine_core_static)
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/results_unit)
  add_test(NAME unit.results COMMAND test_results ${CMAKE_CURRENT_BINARY_DIR}/results_unit)
  set_tests_properties(unit.results PROPERTIES LABELS unit TIMEOUT 120)
endif()
