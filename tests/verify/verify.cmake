# Verifier tier: every algorithm of each collective over the standard sweep,
# run symbolically by `vine verify` (no MPI, no processes).  Only cases that an
# algorithm's registered restrictions exclude count as skipped; a builder that
# refuses an admitted case fails.
# The SimGrid build runs only its own tier (tests/smpi).
if(VINE_SMPI)
  return()
endif()
set(VINE_VERIFY_RANKS "1-64,100,127,128,129,255,256,1000,1024")
# The sanitizer build looks for memory errors, not for more cases: it runs the
# sweep without the two sizes near 1000, which take most of its time.
if(VINE_SANITIZE)
  set(VINE_VERIFY_RANKS "1-64,100,127,128,129,255,256")
endif()
set(VINE_VERIFY_COUNTS "0,1,p-1,p,p+1,1000,4099")
set(VINE_VERIFY_COLLS bcast reduce allreduce allgather reduce_scatter reduce_scatter_block
  alltoall gather scatter barrier)
set(VINE_VERIFY_REDUCING reduce allreduce reduce_scatter reduce_scatter_block)

foreach(coll ${VINE_VERIFY_COLLS})
  add_test(NAME verify.${coll}
    COMMAND $<TARGET_FILE:vine_cli> verify --coll ${coll} --algo all
            --ranks ${VINE_VERIFY_RANKS} --count ${VINE_VERIFY_COUNTS})
  set_tests_properties(verify.${coll} PROPERTIES LABELS verify TIMEOUT 900)
endforeach()

# Non-commutative ops: operands must be combined in rank order.
foreach(coll ${VINE_VERIFY_REDUCING})
  add_test(NAME verify.${coll}.noncommutative
    COMMAND $<TARGET_FILE:vine_cli> verify --coll ${coll} --algo all
            --ranks ${VINE_VERIFY_RANKS} --count ${VINE_VERIFY_COUNTS} --noncommutative)
  set_tests_properties(verify.${coll}.noncommutative PROPERTIES LABELS verify TIMEOUT 900)
endforeach()

# The tool itself: a listing works, and a bad option is refused (exit 2).
add_test(NAME verify.cli.list COMMAND $<TARGET_FILE:vine_cli> list)
add_test(NAME verify.cli.bad_collective COMMAND $<TARGET_FILE:vine_cli> verify --coll nope)
add_test(NAME verify.cli.bad_list
  COMMAND $<TARGET_FILE:vine_cli> verify --coll bcast --ranks 3-1)
set_tests_properties(verify.cli.list verify.cli.bad_collective verify.cli.bad_list
  PROPERTIES LABELS verify TIMEOUT 60)
set_tests_properties(verify.cli.bad_collective verify.cli.bad_list PROPERTIES WILL_FAIL TRUE)
