# Unit test of the cost model's shm level and of auto's choice with it
# (src/select/cost_shm.c, cost.h, select.h), no MPI: hand-worked shm costs
# (the par schedules' too), monotonicity, the parameter and tuning files with and without "shm", auto's
# unchanged default on one node and the model's choice with parameters,
# leader_shm on nodes of different sizes.
if(VINE_SMPI)
  return()
endif()
add_executable(test_cost_shm ${CMAKE_CURRENT_LIST_DIR}/test_cost_shm.c)
target_link_libraries(test_cost_shm PRIVATE vine_core_static)
add_test(NAME unit.cost_shm COMMAND test_cost_shm)
set_tests_properties(unit.cost_shm PROPERTIES LABELS unit TIMEOUT 60)
