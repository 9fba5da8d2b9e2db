# Unit test of tuning files (src/select/tuning.h, docs/tuning.md) and of the
# line finder of their messages (src/select/jsonpos.h), no MPI: lookups,
# merging, every message of the reader, add_rule and the writer, the files of
# tests/data/tuning, bad input, and a round trip through a temporary file.
if(NOT VINE_SMPI)
  add_executable(test_tuning ${CMAKE_CURRENT_LIST_DIR}/test_tuning.c)
  target_link_libraries(test_tuning PRIVATE vine_core_static)
  add_test(NAME unit.tuning COMMAND test_tuning ${CMAKE_CURRENT_LIST_DIR}/../data/tuning)
  set_tests_properties(unit.tuning PROPERTIES LABELS unit TIMEOUT 120)
endif()
