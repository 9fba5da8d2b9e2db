# Verifier tier: every algorithm of each collective over the standard sweep,
# run symbolically by `vine verify` (no MPI, no processes).  Only cases that an
# algorithm's registered restrictions exclude count as skipped; a builder that
# refuses an admitted case fails.
# The SimGrid build runs only its own tier (tests/smpi).
if(VINE_SMPI)
  return()
endif()
# p = 1000 and 1024 take two thirds of the sweep's time (the alltoall-like
# algorithms send p^2 messages): they run in `make verify-large` (label
# verify_large, verify.p1000.*), not in `make test`.
set(VINE_VERIFY_RANKS "1-64,100,127,128,129,255,256")
set(VINE_VERIFY_RANKS_LARGE "1000,1024")
# The sanitizer build looks for memory errors, not for more cases: it runs the
# sweep without the sizes above 128, which take most of its time (the plain
# build proves them).
if(VINE_SANITIZE)
  set(VINE_VERIFY_RANKS "1-64,100,127,128")
endif()
set(VINE_VERIFY_COUNTS "0,1,p-1,p,p+1,1000,4099")
# The v collectives run each case with every count distribution of `vine
# verify --dist` (zeros, one rank holding everything, random ...), blocks
# packed and in reversed order with gaps.
set(VINE_VERIFY_COLLS bcast reduce allreduce allgather reduce_scatter reduce_scatter_block
  alltoall gather scatter barrier allgatherv alltoallv alltoallw gatherv scatterv scan exscan)
set(VINE_VERIFY_REDUCING reduce allreduce reduce_scatter reduce_scatter_block scan exscan)

# The shm family runs at node sizes with region sizes of its own (shm.cmake):
# here --shm-count 0 leaves it out as its restrictions do without a segment.
# Under the sanitizer the v collectives take two of the five distributions
# (one rank holding everything, random), both layouts: a third of their time.
set(VINE_VERIFY_V allgatherv alltoallv alltoallw gatherv scatterv)
foreach(coll ${VINE_VERIFY_COLLS})
  set(vine_verify_dist)
  if(VINE_SANITIZE AND coll IN_LIST VINE_VERIFY_V)
    set(vine_verify_dist --dist one,random)
  endif()
  add_test(NAME verify.${coll}
    COMMAND $<TARGET_FILE:vine_cli> verify --coll ${coll} --algo all
            --ranks ${VINE_VERIFY_RANKS} --count ${VINE_VERIFY_COUNTS} --shm-count 0
            ${vine_verify_dist})
  set_tests_properties(verify.${coll} PROPERTIES LABELS verify TIMEOUT 900)
  add_test(NAME verify.p1000.${coll}
    COMMAND $<TARGET_FILE:vine_cli> verify --coll ${coll} --algo all
            --ranks ${VINE_VERIFY_RANKS_LARGE} --count ${VINE_VERIFY_COUNTS} --shm-count 0)
  set_tests_properties(verify.p1000.${coll} PROPERTIES LABELS verify_large TIMEOUT 3600)
endforeach()

# Non-commutative ops: operands must be combined in rank order.
foreach(coll ${VINE_VERIFY_REDUCING})
  add_test(NAME verify.${coll}.noncommutative
    COMMAND $<TARGET_FILE:vine_cli> verify --coll ${coll} --algo all
            --ranks ${VINE_VERIFY_RANKS} --count ${VINE_VERIFY_COUNTS} --noncommutative
            --shm-count 0)
  set_tests_properties(verify.${coll}.noncommutative PROPERTIES LABELS verify TIMEOUT 900)
  add_test(NAME verify.p1000.${coll}.noncommutative
    COMMAND $<TARGET_FILE:vine_cli> verify --coll ${coll} --algo all
            --ranks ${VINE_VERIFY_RANKS_LARGE} --count ${VINE_VERIFY_COUNTS} --noncommutative
            --shm-count 0)
  set_tests_properties(verify.p1000.${coll}.noncommutative PROPERTIES LABELS verify_large
    TIMEOUT 3600)
endforeach()

# The tool itself: a listing works, and a bad option is refused (exit 2).
add_test(NAME verify.cli.list COMMAND $<TARGET_FILE:vine_cli> list)
add_test(NAME verify.cli.bad_collective COMMAND $<TARGET_FILE:vine_cli> verify --coll nope)
add_test(NAME verify.cli.bad_list
  COMMAND $<TARGET_FILE:vine_cli> verify --coll bcast --ranks 3-1)
# Shared memory: the region sizes and single-copy forms reach the builders
# (a shared-memory algorithm passes its small cases; a malformed option is refused),
# and `vine dump` prints the shared-memory operations.
add_test(NAME verify.cli.shm_count
  COMMAND $<TARGET_FILE:vine_cli> verify --coll bcast,allreduce --algo all --ranks 1-5
          --count 0,1,p+1,100 --shm-count 8,1000 --shm-single both)
add_test(NAME verify.cli.bad_shm_single
  COMMAND $<TARGET_FILE:vine_cli> verify --coll bcast --shm-single maybe)
add_test(NAME verify.cli.dump_shm
  COMMAND $<TARGET_FILE:vine_cli> dump --coll bcast --algo shm --ranks 3 --count 40 --root 1
          --shm-count 16 --shm-single no)
set_tests_properties(verify.cli.dump_shm PROPERTIES PASS_REGULAR_EXPRESSION "wait [0-9]+ [0-9]+")
set_tests_properties(verify.cli.list verify.cli.bad_collective verify.cli.bad_list
  verify.cli.shm_count verify.cli.bad_shm_single verify.cli.dump_shm
  PROPERTIES LABELS verify TIMEOUT 60)
set_tests_properties(verify.cli.bad_collective verify.cli.bad_list verify.cli.bad_shm_single
  PROPERTIES WILL_FAIL TRUE)
