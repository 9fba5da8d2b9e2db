# `vine sim traffic` with levels inside the node (issue 18): --numa K on the
# topology's levels and a synthetic map with node=.  One host of 8 ranks has
# a flat node map, so bcast hier runs only on the NUMA level below it.
if(VINE_SMPI)
  return()
endif()
set(vine_sim_numa $<TARGET_FILE:vine_cli> sim traffic --topo lumi --coll bcast --algo hier
  --size 64KiB)
add_test(NAME unit.sim_numa.topo COMMAND ${vine_sim_numa} --ranks 8 --placement block:ppn=8
  --numa 2)
set_tests_properties(unit.sim_numa.topo PROPERTIES LABELS unit TIMEOUT 60
  PASS_REGULAR_EXPRESSION "levels: numa \\(2 groups\\), node \\(1 groups\\) \\(from the topology\\)\n.*\n +8 +bcast +hier +64KiB +3 +7 ")
add_test(NAME unit.sim_numa.flat COMMAND ${vine_sim_numa} --ranks 8 --placement block:ppn=8)
set_tests_properties(unit.sim_numa.flat PROPERTIES LABELS unit TIMEOUT 60
  PASS_REGULAR_EXPRESSION "levels: none \\(flat[^\n]*\n.*skip: bcast hier")
add_test(NAME unit.sim_numa.switches COMMAND ${vine_sim_numa} --ranks 48
  --placement block:ppn=12 --numa 3)
set_tests_properties(unit.sim_numa.switches PROPERTIES LABELS unit TIMEOUT 60
  PASS_REGULAR_EXPRESSION "levels: numa \\(12 groups\\), node \\(4 groups\\) \\(from the topology\\)")
add_test(NAME unit.sim_numa.synthetic COMMAND ${vine_sim_numa} --ranks 16
  --levels block:2/node=block:4)
set_tests_properties(unit.sim_numa.synthetic PROPERTIES LABELS unit TIMEOUT 60
  PASS_REGULAR_EXPRESSION "levels: level 0 \\(8 groups\\), level 1 \\(2 groups, node\\)\n")
add_test(NAME unit.sim_numa.refused COMMAND ${vine_sim_numa} --ranks 16 --levels block:4
  --numa 2)
set_tests_properties(unit.sim_numa.refused PROPERTIES LABELS unit TIMEOUT 60
  PASS_REGULAR_EXPRESSION "--numa takes the topology's levels")
add_test(NAME unit.sim_numa.malformed COMMAND ${vine_sim_numa} --ranks 16 --numa 0)
set_tests_properties(unit.sim_numa.malformed PROPERTIES LABELS unit TIMEOUT 60
  PASS_REGULAR_EXPRESSION "--numa 0: expected 1 to 1024")
