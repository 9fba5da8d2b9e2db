# Unit tests of the symbolic verifier (src/sched/verify*.c), no MPI.
# The SimGrid build runs only its own tier (tests/smpi).
if(VINE_SMPI)
  return()
endif()
add_executable(test_verify ${CMAKE_CURRENT_LIST_DIR}/test_verify.c)
target_link_libraries(test_verify PRIVATE vine_core_static)
add_test(NAME unit.verify COMMAND test_verify)
set_tests_properties(unit.verify PROPERTIES LABELS unit TIMEOUT 60)

add_executable(test_verify_seg ${CMAKE_CURRENT_LIST_DIR}/test_verify_seg.c)
target_link_libraries(test_verify_seg PRIVATE vine_core_static)
add_test(NAME unit.verify_seg COMMAND test_verify_seg)
set_tests_properties(unit.verify_seg PROPERTIES LABELS unit TIMEOUT 60)
