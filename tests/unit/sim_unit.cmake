# Unit test of the traffic and time simulator (src/sim), no MPI.
if(NOT VINE_SMPI)
  add_executable(test_sim ${CMAKE_CURRENT_LIST_DIR}/test_sim.c)
  target_link_libraries(test_sim PRIVATE vine_core_static)
  add_test(NAME unit.sim COMMAND test_sim)
  set_tests_properties(unit.sim PROPERTIES LABELS unit TIMEOUT 120)
endif()
