# Unit test of the simulator's ports (src/sim/sim.h; issue 23): hand-computed
# times with one and several ports per host, per-port bytes, the ports=
# option; no MPI.
if(NOT VINE_SMPI)
  add_executable(test_sim_ports ${CMAKE_CURRENT_LIST_DIR}/test_sim_ports.c)
  target_link_libraries(test_sim_ports PRIVATE vine_core_static)
  add_test(NAME unit.sim_ports COMMAND test_sim_ports)
  set_tests_properties(unit.sim_ports PROPERTIES LABELS unit TIMEOUT 60)
endif()
