# The Bine paper's traffic claims on the lumi preset (issue 5), through the
# simulator's C API; no MPI.
if(NOT VINE_SMPI)
  add_executable(test_sim_claims ${CMAKE_CURRENT_LIST_DIR}/test_sim_claims.c)
  target_link_libraries(test_sim_claims PRIVATE vine_core_static)
  add_test(NAME unit.sim_claims COMMAND test_sim_claims)
  set_tests_properties(unit.sim_claims PROPERTIES LABELS unit TIMEOUT 300)
endif()
