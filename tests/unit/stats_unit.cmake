# Unit test of vine-bench's statistics (src/bench/stats.h): the 20% warm-up
# drop, median, mean, p99, and nccl-tests' algbw and busbw, no MPI.
if(NOT VINE_SMPI)
  add_executable(test_stats ${CMAKE_CURRENT_LIST_DIR}/test_stats.c)
  target_link_libraries(test_stats PRIVATE vine_core_static)
  add_test(NAME unit.stats COMMAND test_stats)
  set_tests_properties(unit.stats PROPERTIES LABELS unit TIMEOUT 120)
endif()
