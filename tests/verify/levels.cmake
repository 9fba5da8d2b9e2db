# Verifier tier, issue 8: the hierarchical algorithms on synthetic level maps
# (`vine verify --levels SPEC`, src/coll/levels.h, docs/hierarchical.md).
# Each run must report exactly the expected number of passed and skipped
# cases, so a map that the tool failed to make (every case skipped) cannot
# pass.  Maps: uneven node sizes 1, 3, 5, 7 mixed; random groups; ranks of a
# node not consecutive (cyclic); two and three levels.
if(VINE_SMPI)
  return()
endif()

# vine_levels_verify(name passed skipped args...): verify.levels.<name> runs
# `vine verify args...` and must print "<passed> passed, 0 failed, <skipped> skipped".
function(vine_levels_verify name passed skipped)
  add_test(NAME verify.levels.${name} COMMAND $<TARGET_FILE:vine_cli> verify ${ARGN})
  set_tests_properties(verify.levels.${name} PROPERTIES LABELS verify TIMEOUT 300
    PASS_REGULAR_EXPRESSION "(^|\n)${passed} passed, 0 failed, ${skipped} skipped")
endfunction()

# Small sizes, every root, the standard counts (7 distinct ones for p >= 3,
# 0 included), both in-place forms: the rooted collectives with an in-place
# form (gather, scatter, reduce) have 14 p cases per size, 14 * (3 + ... +
# 16) = 1862 in all; bcast (no in-place form) 931; allgather (no root) 14
# per size, 196.  No size is flat on these maps, so nothing is skipped.
foreach(m "uneven;sizes:1,3,5,7"
    "uneven2;sizes:1,3,5,7/block:2"
    "uneven3;sizes:2,1,3/block:2/block:2"
    "random2;random:3:5,2"
    "random2b;random:7:8,3"
    "random3;random:11:6,3,2"
    "cyclic2;cyclic:3/block:2")
  list(GET m 0 name)
  list(GET m 1 spec)
  vine_levels_verify(gather.${name} 1862 0 --coll gather --algo leader --ranks 3-16 --levels ${spec})
  vine_levels_verify(gather_bine.${name} 1862 0 --coll gather --algo leader_bine --ranks 3-16
    --levels ${spec})
  vine_levels_verify(scatter.${name} 1862 0 --coll scatter --algo leader --ranks 3-16 --levels ${spec})
  vine_levels_verify(scatter_bine.${name} 1862 0 --coll scatter --algo leader_bine --ranks 3-16
    --levels ${spec})
  vine_levels_verify(bcast.${name} 931 0 --coll bcast --algo hier --ranks 3-16 --levels ${spec})
  vine_levels_verify(bcast_large.${name} 931 0 --coll bcast --algo hier_large --ranks 3-16
    --levels ${spec})
  vine_levels_verify(reduce.${name} 1862 0 --coll reduce --algo hier --ranks 3-16 --levels ${spec})
  vine_levels_verify(reduce_large.${name} 1862 0 --coll reduce --algo hier_large --ranks 3-16
    --levels ${spec})
  vine_levels_verify(allgather.${name} 196 0 --coll allgather --algo hier --ranks 3-16
    --levels ${spec})
endforeach()

# Maps that are flat at some sizes, whose cases there are skipped.  One
# random level of 4 groups: at p = 3 the ranks land in 3 groups, so that
# size's 14 * 3 (gather, scatter, reduce), 7 * 3 (bcast) or 14 (allgather)
# cases skip.  cyclic:4 (a node's ranks not consecutive): at p = 3 and 4
# every rank is alone, 14 * 7, 7 * 7 or 28 cases skip.
foreach(m "random1;random:7:4;1820;42;910;21;182;14"
    "cyclic4;cyclic:4;1764;98;882;49;168;28")
  list(GET m 0 name)
  list(GET m 1 spec)
  list(GET m 2 pass)
  list(GET m 3 skip)
  list(GET m 4 bpass)
  list(GET m 5 bskip)
  list(GET m 6 apass)
  list(GET m 7 askip)
  foreach(ca "gather;leader" "gather_bine;leader_bine" "scatter;leader"
      "scatter_bine;leader_bine" "reduce;hier" "reduce_large;hier_large")
    list(GET ca 0 test)
    list(GET ca 1 algo)
    string(REGEX REPLACE "_(bine|large)$" "" coll ${test})
    vine_levels_verify(${test}.${name} ${pass} ${skip} --coll ${coll} --algo ${algo} --ranks 3-16
      --levels ${spec})
  endforeach()
  vine_levels_verify(bcast.${name} ${bpass} ${bskip} --coll bcast --algo hier --ranks 3-16
    --levels ${spec})
  vine_levels_verify(bcast_large.${name} ${bpass} ${bskip} --coll bcast --algo hier_large
    --ranks 3-16 --levels ${spec})
  vine_levels_verify(allgather.${name} ${apass} ${askip} --coll allgather --algo hier
    --ranks 3-16 --levels ${spec})
endforeach()

# Larger sizes with the default roots (0, 1, p/2, p-1): 29 sizes * 4 roots *
# 7 counts * 2 forms = 1624 (bcast 812, allgather without roots 406).
set(vine_levels_large "17-40,64,100,128,255,256")
foreach(m "random;random:5:8,3" "uneven;sizes:1,3,5,7/block:3" "cyclic4;cyclic:4")
  list(GET m 0 name)
  list(GET m 1 spec)
  vine_levels_verify(gather.large.${name} 3248 0 --coll gather --algo leader,leader_bine
    --ranks ${vine_levels_large} --levels ${spec})
  vine_levels_verify(scatter.large.${name} 3248 0 --coll scatter --algo leader,leader_bine
    --ranks ${vine_levels_large} --levels ${spec})
  vine_levels_verify(bcast.large.${name} 812 0 --coll bcast --algo hier
    --ranks ${vine_levels_large} --levels ${spec})
  vine_levels_verify(bcast_large.large.${name} 812 0 --coll bcast --algo hier_large
    --ranks ${vine_levels_large} --levels ${spec})
  vine_levels_verify(reduce.large.${name} 1624 0 --coll reduce --algo hier
    --ranks ${vine_levels_large} --levels ${spec})
  vine_levels_verify(reduce_large.large.${name} 1624 0 --coll reduce --algo hier_large
    --ranks ${vine_levels_large} --levels ${spec})
  vine_levels_verify(allgather.large.${name} 406 0 --coll allgather --algo hier
    --ranks ${vine_levels_large} --levels ${spec})
endforeach()

# Reduce hier and hier_large need a commutative op: with --noncommutative
# every case of 3 .. 16 skips (1862 each).
vine_levels_verify(reduce.noncommutative 0 3724 --coll reduce --algo hier,hier_large
  --ranks 3-16 --levels sizes:1,3,5,7/block:2 --noncommutative)

# allreduce hier (Bine butterfly across nodes), hier_rd (recursive
# doubling), hier_large (Bine reduce-scatter + allgather) and hier_rab
# (Rabenseifner), one frame: 14 cases per size.  block:3 at 6, 9, 12, 15 (2 to 5 nodes, the fold for 3
# and 5): 56.  cyclic:4 (ranks of a node not consecutive) at 8 .. 28: 84.
# Two levels over 2 .. 16: every size from 3 passes (odd sizes have a node
# of one rank, so one lane), p = 2 is flat (12 cases skipped).  Large: 5
# sizes, 70.  Nodes of different sizes (sizes:1,3,5,7 over 3 .. 16, 196
# cases; one lane where the node of one rank exists) pass; a non-commutative
# op (4 .. 16, 182 cases) skips.
foreach(algo hier hier_rd hier_large hier_rab)
  vine_levels_verify(allreduce.${algo}.block3 56 0 --coll allreduce --algo ${algo}
    --ranks 6,9,12,15 --levels block:3)
  vine_levels_verify(allreduce.${algo}.cyclic4 84 0 --coll allreduce --algo ${algo}
    --ranks 8,12,16,20,24,28 --levels cyclic:4)
  vine_levels_verify(allreduce.${algo}.cyclic2 196 12 --coll allreduce --algo ${algo}
    --ranks 2-16 --levels cyclic:2/block:2)
  vine_levels_verify(allreduce.${algo}.block22 196 12 --coll allreduce --algo ${algo}
    --ranks 2-16 --levels block:2,2)
  vine_levels_verify(allreduce.${algo}.large 70 0 --coll allreduce --algo ${algo}
    --ranks 64,100,128,256,1024 --levels block:4,2)
  vine_levels_verify(allreduce.${algo}.noncommutative 0 182 --coll allreduce --algo ${algo}
    --ranks 4-16 --levels block:2,2 --noncommutative)
  vine_levels_verify(allreduce.${algo}.uneven 196 0 --coll allreduce --algo ${algo}
    --ranks 3-16 --levels sizes:1,3,5,7)
  # Lanes of several ranks: nodes of 5, 2 and 6 ranks (2 lanes, folds of up
  # to 3 ranks), and one node of 8 beside one of 1 (8 ranks fold into one).
  vine_levels_verify(allreduce.${algo}.lanes 126 0 --coll allreduce --algo ${algo}
    --ranks 8-13,20,64,100 --levels sizes:5,2,6)
  vine_levels_verify(allreduce.${algo}.lanes81 112 0 --coll allreduce --algo ${algo}
    --ranks 9-16 --levels sizes:8,1)
endforeach()
# The segmented bine_large across nodes (its segments of 3 elements), with
# lanes from 5 ranks up (4 per node, the last node smaller).
vine_levels_verify(allreduce.hier_large.seg 378 0 --coll allreduce --algo hier_large
  --ranks 5-30,64 --levels block:4 --seg 3)

# --remap: the flat bcast, reduce, allreduce and barrier algorithms built on
# the ranks in block order of a random and a cyclic map (the hierarchical
# ones run beside them as usual); with a non-commutative op the reductions
# are not remapped and must still pass.  The counts include every algorithm
# of the four collectives at p = 1-24 and 100; the shm family (--shm-count 0)
# counts as skipped, it has sweeps of its own (shm.cmake).  The torus
# algorithms (bucket, bine_torus(_multiport), swing: never remapped) run on the torus of
# the map where its groups are uniform and skip elsewhere: bucket and
# bine_torus add 207 passed and 4081 skipped on the random map, 1474 and 2814
# on cyclic:4, 2332 skipped without commutativity; swing and allreduce
# bine_torus_multiport each 36 and 308, 134 and 210, 218; bcast and reduce
# bine_torus_multiport together 135 and 3465, 1206 and 2394, 1896.
vine_levels_verify(remap.random 31633 21434 --coll bcast,reduce,allreduce,barrier --algo all
  --ranks 1-24,100 --levels random:7:8,3 --remap --shm-count 0)
vine_levels_verify(remap.cyclic 33761 19306 --coll bcast,reduce,allreduce,barrier --algo all
  --ranks 1-24,100 --levels cyclic:4 --remap --shm-count 0)
vine_levels_verify(remap.noncommutative 4228 22448 --coll reduce,allreduce --algo all
  --ranks 1-16 --levels cyclic:4 --remap --noncommutative --shm-count 0)

# Without --levels, or on a flat map, every hierarchical case is a skip:
# per size 2 counts * (2 forms * (2 gather + 2 scatter + 1 reduce + 2
# allreduce + 1 allgather) + 1 bcast) = 34, * 16 sizes = 544; gather on
# "flat" over 1-8, one root and two counts, both forms: 32.
vine_levels_verify(none 0 544 --coll gather,scatter,bcast,reduce,allreduce,allgather
  --algo leader,leader_bine,hier,hier_rd --ranks 1-16 --count 0,5 --root 0)
vine_levels_verify(flat 0 32 --coll gather --algo leader --ranks 1-8 --count 0,5 --root 0
  --levels flat)

# A malformed description is refused with a message (exit status 2), and
# dump takes --levels too.
add_test(NAME verify.levels.bad_spec
  COMMAND $<TARGET_FILE:vine_cli> verify --coll gather --algo leader --ranks 4 --levels block:x)
set_tests_properties(verify.levels.bad_spec PROPERTIES LABELS verify TIMEOUT 60 WILL_FAIL TRUE)
add_test(NAME verify.levels.bad_spec_message
  COMMAND $<TARGET_FILE:vine_cli> verify --coll gather --algo leader --ranks 4 --levels block:x)
set_tests_properties(verify.levels.bad_spec_message PROPERTIES LABELS verify TIMEOUT 60
  PASS_REGULAR_EXPRESSION "--levels at p=4: levels 'block:x': malformed")
add_test(NAME verify.levels.dump
  COMMAND $<TARGET_FILE:vine_cli> dump --coll gather --algo leader --ranks 8 --count 1 --root 5
          --levels block:2,2)
set_tests_properties(verify.levels.dump PROPERTIES LABELS verify TIMEOUT 60
  PASS_REGULAR_EXPRESSION "rank 5 of 8, 2 rounds[^\n]*\nround 0\n  send to 4 send\\[0,\\+1\\)")
