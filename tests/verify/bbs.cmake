# Verifier tier, issue 6: bcast bbs on the graphs VINE_BBS_GRAPH names.  For
# each graph of n nodes, `vine verify` at p = n proves every root's schedule
# for the standard counts, unsegmented and with segment sizes of 1 element
# (up to the cap of 1024 packets) and 100 elements; the expected number of
# passing cases is matched exactly, so a graph the library failed to read
# (every case skipped) cannot pass.  A graph whose node count differs from p,
# or that cannot be used at all, must make the cases skips, never failures.
if(VINE_SMPI)
  return()
endif()
set(vine_bbs_data ${CMAKE_CURRENT_SOURCE_DIR}/data/bbs)
set(vine_bbs_counts "0,1,p-1,p,p+1,1000,4099")

# vine_bbs_verify(name graph p cases args...): verify.bbs.<name> must report
# exactly `cases` passed cases, none failed or skipped.
function(vine_bbs_verify name graph p cases)
  add_test(NAME verify.bbs.${name}
    COMMAND $<TARGET_FILE:vine_cli> verify --coll bcast --algo bbs --ranks ${p} ${ARGN})
  set_tests_properties(verify.bbs.${name} PROPERTIES LABELS verify TIMEOUT 600
    ENVIRONMENT "VINE_BBS_GRAPH=${graph}"
    PASS_REGULAR_EXPRESSION "(^|\n)${cases} passed, 0 failed, 0 skipped")
endfunction()

# graph name, spec, nodes; every root of p <= 16 and the 7 distinct counts.
foreach(g "grid4x4;grid:4x4;16" "16k3;16k3;16" "grid3x4;grid:3x4;12"
    "kite;edges:${vine_bbs_data}/kite.txt;7")
  list(GET g 0 name)
  list(GET g 1 spec)
  list(GET g 2 p)
  math(EXPR cases "${p} * 7")
  vine_bbs_verify(${name} ${spec} ${p} ${cases} --count ${vine_bbs_counts})
  vine_bbs_verify(${name}.seg1 ${spec} ${p} ${cases} --count ${vine_bbs_counts} --seg 1)
  vine_bbs_verify(${name}.seg100 ${spec} ${p} ${cases} --count ${vine_bbs_counts} --seg 100)
endforeach()

# The 4x4 grid (16 nodes) at p = 12, 15, 16, 17: only p = 16 runs, the rest
# are skips (2 roots x 3 counts each).
add_test(NAME verify.bbs.mismatch
  COMMAND $<TARGET_FILE:vine_cli> verify --coll bcast --algo bbs --ranks 12,15-17
          --count 0,1,1000 --root 0,1)
# No usable graph: a missing file, a disconnected graph, a malformed name.
add_test(NAME verify.bbs.missing_file
  COMMAND $<TARGET_FILE:vine_cli> verify --coll bcast --algo bbs --ranks 1-16 --count 1
          --root 0)
add_test(NAME verify.bbs.disconnected
  COMMAND $<TARGET_FILE:vine_cli> verify --coll bcast --algo bbs --ranks 1-16 --count 1
          --root 0)
add_test(NAME verify.bbs.bad_name
  COMMAND $<TARGET_FILE:vine_cli> verify --coll bcast --algo bbs --ranks 1-16 --count 1
          --root 0)
set_tests_properties(verify.bbs.mismatch PROPERTIES ENVIRONMENT "VINE_BBS_GRAPH=grid:4x4"
  PASS_REGULAR_EXPRESSION "(^|\n)6 passed, 0 failed, 18 skipped")
set_tests_properties(verify.bbs.missing_file PROPERTIES
  ENVIRONMENT "VINE_BBS_GRAPH=edges:${vine_bbs_data}/no_such_file.txt")
set_tests_properties(verify.bbs.disconnected PROPERTIES
  ENVIRONMENT "VINE_BBS_GRAPH=edges:${vine_bbs_data}/disconnected.txt")
set_tests_properties(verify.bbs.bad_name PROPERTIES ENVIRONMENT "VINE_BBS_GRAPH=grid:4y4")
set_tests_properties(verify.bbs.missing_file verify.bbs.disconnected verify.bbs.bad_name
  PROPERTIES PASS_REGULAR_EXPRESSION "(^|\n)0 passed, 0 failed, 16 skipped")
set_tests_properties(verify.bbs.mismatch verify.bbs.missing_file verify.bbs.disconnected
  verify.bbs.bad_name PROPERTIES LABELS verify TIMEOUT 120)
