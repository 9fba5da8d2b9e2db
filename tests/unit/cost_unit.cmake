# Unit test of the multi-level cost model and of auto selection from it
# (src/select/cost.h, select.h), no MPI: hand-worked costs on small maps,
# the choices they lead to, the parameter file's loader and writer.
if(NOT VINE_SMPI)
  add_executable(test_cost ${CMAKE_CURRENT_LIST_DIR}/test_cost.c)
  target_link_libraries(test_cost PRIVATE vine_core_static)
  add_test(NAME unit.cost COMMAND test_cost)
  set_tests_properties(unit.cost PROPERTIES LABELS unit TIMEOUT 60)
endif()
