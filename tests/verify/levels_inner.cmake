# Verifier tier, issue 18: level maps with levels inside the node (`vine
# verify --levels` with a node= mark, src/coll/levels.h).  The algorithms
# that run on any number of levels (gather and scatter leader and
# leader_bine, bcast, reduce and allgather hier, bcast and reduce hier_large,
# allreduce hier, hier_rd, hier_large and hier_rab) take the full map; every
# other one keeps the map from the node up and must pass and skip exactly as
# on that map alone.  Each run must report exactly the expected number of
# passed and skipped cases.  About 10 s of CPU in all.
if(VINE_SMPI)
  return()
endif()

# vine_inner_verify(name passed skipped args...): verify.levels_inner.<name>.
function(vine_inner_verify name passed skipped)
  add_test(NAME verify.levels_inner.${name} COMMAND $<TARGET_FILE:vine_cli> verify ${ARGN})
  set_tests_properties(verify.levels_inner.${name} PROPERTIES LABELS verify TIMEOUT 300
    PASS_REGULAR_EXPRESSION "(^|\n)${passed} passed, 0 failed, ${skipped} skipped")
endfunction()

# Every root, the standard counts, both in-place forms at 3 .. 16 ranks (as
# in verify.levels.*: 1862 cases per rooted algorithm with an in-place form,
# 931 for bcast, 196 for allgather).  numa: NUMA domains of 2 ranks in nodes
# of 4 domains, so up to 8 ranks one node whose map is flat and only the
# levels inside it divide; uneven: domains of ranks r and r + 2 (not
# consecutive) in nodes of 1, 3, 5, 7 domains; three: domains of 2 and 1
# ranks, nodes of 2 domains, switches of 2 nodes.  random: 3 domains at
# random in 4 nodes, flat at p = 3 (skipped there).
foreach(m "numa;block:2/node=block:4;0" "uneven;cyclic:2/node=sizes:1,3,5,7;0"
    "three;sizes:2,1/node=block:2/block:2;0" "random;random:3:3/node=random:5:4,2;1")
  list(GET m 0 name)
  list(GET m 1 spec)
  list(GET m 2 flat3)
  math(EXPR skip "${flat3} * 84")
  math(EXPR pass "3724 - ${skip}")
  vine_inner_verify(gather.${name} ${pass} ${skip} --coll gather --algo leader,leader_bine
    --ranks 3-16 --levels ${spec})
  vine_inner_verify(scatter.${name} ${pass} ${skip} --coll scatter --algo leader,leader_bine
    --ranks 3-16 --levels ${spec})
  math(EXPR skip "${flat3} * 21")
  math(EXPR pass "931 - ${skip}")
  vine_inner_verify(bcast.${name} ${pass} ${skip} --coll bcast --algo hier --ranks 3-16
    --levels ${spec})
  vine_inner_verify(bcast_large.${name} ${pass} ${skip} --coll bcast --algo hier_large
    --ranks 3-16 --levels ${spec})
  math(EXPR skip "${flat3} * 42")
  math(EXPR pass "1862 - ${skip}")
  vine_inner_verify(reduce.${name} ${pass} ${skip} --coll reduce --algo hier --ranks 3-16
    --levels ${spec})
  vine_inner_verify(reduce_large.${name} ${pass} ${skip} --coll reduce --algo hier_large
    --ranks 3-16 --levels ${spec})
  math(EXPR skip "${flat3} * 14")
  math(EXPR pass "196 - ${skip}")
  vine_inner_verify(allgather.${name} ${pass} ${skip} --coll allgather --algo hier --ranks 3-16
    --levels ${spec})
  math(EXPR skip "${flat3} * 56")
  math(EXPR pass "784 - ${skip}")
  vine_inner_verify(allreduce.${name} ${pass} ${skip} --coll allreduce
    --algo hier,hier_rd,hier_large,hier_rab --ranks 3-16 --levels ${spec})
endforeach()

# The algorithms that stay on the nodes, and the shm family, on numa's map
# at 3 .. 20 ranks: the same counts as on its nodes alone (block:8), where
# up to 8 ranks the map is flat and the flat shm family applies.
foreach(ca "bcast;shm;924;3248" "reduce;shm;1848;6496"
    "allreduce;hier_shm,shm;364;1148"
    "gather;shm;1848;6496" "allgather;shm;336;672")
  list(GET ca 0 coll)
  list(GET ca 1 algos)
  list(GET ca 2 pass)
  list(GET ca 3 skip)
  vine_inner_verify(nodes.${coll} ${pass} ${skip} --coll ${coll} --algo ${algos} --ranks 3-20
    --levels block:2/node=block:4)
endforeach()

# Larger sizes with the default roots: 29 sizes, 4 roots, 7 counts, 2 forms.
set(vine_inner_large "17-40,64,100,128,255,256")
foreach(m "random;random:5:6/node=random:7:8,3" "blocks;block:4,2/node=block:3/block:2")
  list(GET m 0 name)
  list(GET m 1 spec)
  vine_inner_verify(gather.large.${name} 3248 0 --coll gather --algo leader,leader_bine
    --ranks ${vine_inner_large} --levels ${spec})
  vine_inner_verify(scatter.large.${name} 3248 0 --coll scatter --algo leader,leader_bine
    --ranks ${vine_inner_large} --levels ${spec})
  vine_inner_verify(bcast.large.${name} 1624 0 --coll bcast --algo hier,hier_large
    --ranks ${vine_inner_large} --levels ${spec})
  vine_inner_verify(reduce.large.${name} 3248 0 --coll reduce --algo hier,hier_large
    --ranks ${vine_inner_large} --levels ${spec})
  vine_inner_verify(allgather.large.${name} 406 0 --coll allgather --algo hier
    --ranks ${vine_inner_large} --levels ${spec})
  vine_inner_verify(allreduce.large.${name} 1624 0 --coll allreduce
    --algo hier,hier_rd,hier_large,hier_rab --ranks ${vine_inner_large} --levels ${spec})
endforeach()

# Two node= marks: the tool stops with the reason.
add_test(NAME verify.levels_inner.two_nodes COMMAND $<TARGET_FILE:vine_cli> verify --coll bcast
  --algo hier --ranks 8 --levels block:2/node=block:2/node=block:2)
set_tests_properties(verify.levels_inner.two_nodes PROPERTIES LABELS verify TIMEOUT 60
  PASS_REGULAR_EXPRESSION "more than one node= level")
