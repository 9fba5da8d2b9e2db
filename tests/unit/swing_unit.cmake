# Unit test of Swing's peers, fold and block sets (src/coll/phase_swing.h), no MPI.
if(NOT VINE_SMPI)
  add_executable(test_swing ${CMAKE_CURRENT_LIST_DIR}/test_swing.c)
  target_link_libraries(test_swing PRIVATE vine_core_static)
  add_test(NAME unit.swing COMMAND test_swing)
  set_tests_properties(unit.swing PROPERTIES LABELS unit TIMEOUT 60)
endif()
