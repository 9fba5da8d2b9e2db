# Unit test of vine-bench's copy bandwidth helpers (src/bench/copybw.h): the
# buffers, a copy, GB/s and the busbw fraction, the report line; no MPI.
if(NOT VINE_SMPI)
  add_executable(test_copybw ${CMAKE_CURRENT_LIST_DIR}/test_copybw.c)
  target_link_libraries(test_copybw PRIVATE vine_core_static)
  add_test(NAME unit.bench_copybw COMMAND test_copybw)
  set_tests_properties(unit.bench_copybw PROPERTIES LABELS unit TIMEOUT 120)
endif()
