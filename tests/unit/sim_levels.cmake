# Hierarchical collectives in the simulator: the level map made from a
# topology and a placement (src/sim/sim_levels.c) against hand-made maps,
# hierarchical against flat cross-group bytes by hand and on the presets,
# and `vine sim traffic` with the hierarchical algorithms; no MPI.
if(NOT VINE_SMPI)
  add_executable(test_sim_levels ${CMAKE_CURRENT_LIST_DIR}/test_sim_levels.c)
  target_link_libraries(test_sim_levels PRIVATE vine_core_static)
  add_test(NAME unit.sim_levels COMMAND test_sim_levels)
  set_tests_properties(unit.sim_levels PROPERTIES LABELS unit TIMEOUT 120)
  # sim_file_check is the JSON and CSV checker of tests/unit/sim_cli.cmake.
  foreach(case traffic options remap)
    add_test(NAME unit.sim_levels_cli.${case}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/sim_levels_cli.sh ${case}
                     $<TARGET_FILE:vine_cli> $<TARGET_FILE:sim_file_check>
                     ${CMAKE_CURRENT_BINARY_DIR}/sim_levels_cli_${case})
    set_tests_properties(unit.sim_levels_cli.${case} PROPERTIES LABELS unit TIMEOUT 120)
  endforeach()
endif()
