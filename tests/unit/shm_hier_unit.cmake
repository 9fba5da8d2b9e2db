# Unit test of the hierarchical shm algorithms on pretend nodes sharing one
# segment (tests/unit/test_shm_hier.c): sequences of flat and hierarchical
# shm calls under the verifier, and a control that must show the race the
# entry wait across the nodes prevents.  No MPI.
if(VINE_SMPI)
  return()
endif()
add_executable(test_shm_hier ${CMAKE_CURRENT_LIST_DIR}/test_shm_hier.c)
target_link_libraries(test_shm_hier PRIVATE vine_core_static)
add_test(NAME unit.shm_hier COMMAND test_shm_hier)
set_tests_properties(unit.shm_hier PROPERTIES LABELS unit TIMEOUT 120)
