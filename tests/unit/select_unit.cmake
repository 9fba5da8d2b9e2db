# Unit test of the auto selector (src/select), no MPI.
# The SimGrid build runs only its own tier (tests/smpi).
if(VINE_SMPI)
  return()
endif()
add_executable(test_select ${CMAKE_CURRENT_LIST_DIR}/test_select.c)
target_link_libraries(test_select PRIVATE vine_core_static)
add_test(NAME unit.select COMMAND test_select)
set_tests_properties(unit.select PROPERTIES LABELS unit TIMEOUT 60)
