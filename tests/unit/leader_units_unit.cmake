# Unit test of the leader gather and scatter with irregular blocks
# (src/coll/phase_leader.h, tests/unit/test_leader_units.c), which gather
# and scatter leader_shm run across nodes of different sizes: as a gatherv
# and a scatterv under the verifier, every root, uneven and non-consecutive
# groups, several levels.  No MPI.
if(VINE_SMPI)
  return()
endif()
add_executable(test_leader_units ${CMAKE_CURRENT_LIST_DIR}/test_leader_units.c)
target_link_libraries(test_leader_units PRIVATE vine_core_static)
add_test(NAME unit.leader_units COMMAND test_leader_units)
set_tests_properties(unit.leader_units PROPERTIES LABELS unit TIMEOUT 60)
