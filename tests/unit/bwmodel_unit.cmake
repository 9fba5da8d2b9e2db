# Unit test of the bandwidth models of the group patterns (src/bench/bwmodel.h,
# CommBench eq. 1 and 2): hand-computed values, bounds, the NIC bandwidth
# parser, bad arguments, and every group pattern's prediction against the
# bytes on each NIC in its matrix; no MPI.
if(NOT VINE_SMPI)
  add_executable(test_bwmodel ${CMAKE_CURRENT_LIST_DIR}/test_bwmodel.c)
  target_link_libraries(test_bwmodel PRIVATE vine_core_static)
  add_test(NAME unit.bwmodel COMMAND test_bwmodel)
  set_tests_properties(unit.bwmodel PROPERTIES LABELS unit TIMEOUT 120)
endif()
