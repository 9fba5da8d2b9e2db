# Unit test of the broadcast step model (src/bbs: graphs, the schedule check,
# the baselines, the hybrid), no MPI.
if(NOT VINE_SMPI)
  add_executable(test_bbs_model ${CMAKE_CURRENT_LIST_DIR}/test_bbs_model.c)
  target_link_libraries(test_bbs_model PRIVATE vine_core_static)
  add_test(NAME unit.bbs_model COMMAND test_bbs_model ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(unit.bbs_model PROPERTIES LABELS unit TIMEOUT 120)
endif()
