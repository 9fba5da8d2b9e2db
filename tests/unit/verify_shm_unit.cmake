# Unit tests of the verifier's shared-memory checks (flags, races, consecutive
# calls), no MPI.  The SimGrid build runs only its own tier (tests/smpi).
if(VINE_SMPI)
  return()
endif()
add_executable(test_verify_shm ${CMAKE_CURRENT_LIST_DIR}/test_verify_shm.c)
target_link_libraries(test_verify_shm PRIVATE vine_core_static)
add_test(NAME unit.verify_shm COMMAND test_verify_shm)
set_tests_properties(unit.verify_shm PROPERTIES LABELS unit TIMEOUT 60)
