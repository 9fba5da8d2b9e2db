# Unit test of the count distributions of the v collectives (src/coll/vdist.c), no MPI.
if(NOT VINE_SMPI)
  add_executable(test_vdist ${CMAKE_CURRENT_LIST_DIR}/test_vdist.c)
  target_link_libraries(test_vdist PRIVATE vine_core_static)
  add_test(NAME unit.vdist COMMAND test_vdist)
  set_tests_properties(unit.vdist PROPERTIES LABELS unit TIMEOUT 60)
endif()
