# Unit test of the BBS core (src/bbs: LP, colouring, frames, cycle), no MPI.
if(NOT VINE_SMPI)
  add_executable(test_bbs ${CMAKE_CURRENT_LIST_DIR}/test_bbs.c)
  target_link_libraries(test_bbs PRIVATE vine_core_static)
  add_test(NAME unit.bbs COMMAND test_bbs)
  set_tests_properties(unit.bbs PROPERTIES LABELS unit TIMEOUT 120)
endif()
