# Unit test of the level maps in src/coll/levels.h (parser, validation,
# accessors, the hierarchical tree) and of the registry's level restrictions,
# no MPI.
if(NOT VINE_SMPI)
  add_executable(test_levels ${CMAKE_CURRENT_LIST_DIR}/test_levels.c)
  target_link_libraries(test_levels PRIVATE vine_core_static)
  add_test(NAME unit.levels COMMAND test_levels)
  set_tests_properties(unit.levels PROPERTIES LABELS unit TIMEOUT 120)
endif()
