# The rooted hierarchical shm algorithms (docs/hierarchical.md, docs/shm.md)
# under the verifier: bcast and reduce hier_shm, gather and scatter
# leader_shm, shm phases in the nodes and point-to-point across them, over
# two calls in a row, races on the regions included.  Every root up to
# p = 16 (the tool's default), the standard counts, a small region (every
# large case pipelined in chunks) and a large one.  Maps: nodes of 4 in
# blocks and dealt round-robin, nodes of 8, nodes of 2 and 3, two and three
# levels, random maps (nodes of random sizes, ranks not consecutive), nodes
# of 1, 3, 5 and 7 ranks, nodes of one rank: all four take nodes of any
# sizes.  About 6 s in all (about 36 s in the sanitizer build, on fewer
# sizes).
if(VINE_SMPI)
  return()
endif()

set(vine_shm_hier_counts "0,1,p-1,p,p+1,1000,4099")
set(vine_shm_hier_block4 "8,12,16,20,24,28,32,64")
set(vine_shm_hier_cyclic4 "8,12,16,20,24,32")
set(vine_shm_hier_block8 "16,24,32,64,128")
set(vine_shm_hier_uneven "5-20")
set(vine_shm_hier_random "4-16,33")
set(vine_shm_hier_sizes "3-16")
if(VINE_SANITIZE)
  set(vine_shm_hier_block4 "8,12,16,20,32")
  set(vine_shm_hier_cyclic4 "8,12,20")
  set(vine_shm_hier_block8 "16,24,64")
  set(vine_shm_hier_uneven "5-12,17")
  set(vine_shm_hier_random "4-9,17")
  set(vine_shm_hier_sizes "3-10")
endif()

# vine_shm_hier_verify(name expect args...): verify.shm_hier.<name> runs
# `vine verify args...`; expect "all" wants every case to pass (at least one,
# none skipped), "skip" every case to be skipped (at least one).
function(vine_shm_hier_verify name expect)
  add_test(NAME verify.shm_hier.${name} COMMAND $<TARGET_FILE:vine_cli> verify ${ARGN})
  if(expect STREQUAL "all")
    set(re "(^|\n)[1-9][0-9]* passed, 0 failed, 0 skipped")
  else()
    set(re "(^|\n)0 passed, 0 failed, [1-9][0-9]* skipped")
  endif()
  set_tests_properties(verify.shm_hier.${name} PROPERTIES LABELS verify TIMEOUT 300
    PASS_REGULAR_EXPRESSION "${re}")
endfunction()

foreach(ca "bcast;hier_shm" "reduce;hier_shm" "gather;leader_shm" "scatter;leader_shm")
  list(GET ca 0 coll)
  list(GET ca 1 algo)
  foreach(m "block4;block:4;${vine_shm_hier_block4}" "cyclic4;cyclic:4;${vine_shm_hier_cyclic4}"
      "block8;block:8;${vine_shm_hier_block8}" "uneven;sizes:2,3;${vine_shm_hier_uneven}")
    list(GET m 0 name)
    list(GET m 1 spec)
    list(GET m 2 ranks)
    vine_shm_hier_verify(${coll}.${name} all --coll ${coll} --algo ${algo}
      --ranks ${ranks} --count ${vine_shm_hier_counts} --levels ${spec} --shm-count 256,1000000)
  endforeach()
  # Levels above the node: the gather and scatter across run stage by stage
  # on them (switches of 2 nodes; nodes dealt round-robin, then paired; three
  # levels); nodes of one rank (the node phase on one rank) paired by a level.
  vine_shm_hier_verify(${coll}.levels all --coll ${coll} --algo ${algo} --ranks 8,12,16,20,24,32
    --count 0,1,p+1,1000 --levels block:4,2 --shm-count 64,1000000)
  vine_shm_hier_verify(${coll}.cyclic_levels all --coll ${coll} --algo ${algo} --ranks 8,12,16,24
    --count 0,1,p+1,1000 --levels cyclic:4/block:2 --shm-count 64)
  vine_shm_hier_verify(${coll}.three all --coll ${coll} --algo ${algo} --ranks 16,24,32
    --count 1,1000 --levels block:2/block:2/block:2 --shm-count 64)
  vine_shm_hier_verify(${coll}.singles all --coll ${coll} --algo ${algo} --ranks 3-12
    --count 0,1,p+1,1000 --levels block:1/block:2 --shm-count 64)
  # Without a segment in the nodes nothing is admitted.
  vine_shm_hier_verify(${coll}.no_segment skip --coll ${coll} --algo ${algo} --ranks 8
    --count 1 --levels block:4 --shm-count 0)
endforeach()

# Nodes of any sizes: random nodes on random switches (gather and scatter
# leader_shm: node units of different sizes across, and at the root in an
# order that is not rank order), nodes of 1, 3, 5 and 7 ranks.
foreach(ca "bcast;hier_shm" "reduce;hier_shm" "gather;leader_shm" "scatter;leader_shm")
  list(GET ca 0 coll)
  list(GET ca 1 algo)
  vine_shm_hier_verify(${coll}.random all --coll ${coll} --algo ${algo}
    --ranks ${vine_shm_hier_random} --count ${vine_shm_hier_counts} --levels random:7:8,3
    --shm-count 64,1000000)
  vine_shm_hier_verify(${coll}.sizes1357 all --coll ${coll} --algo ${algo}
    --ranks ${vine_shm_hier_sizes} --count 0,1,p+1,1000 --levels sizes:1,3,5,7 --shm-count 64)
endforeach()
# bcast from 12 KiB on 8 nodes or more runs bine_large across them.
vine_shm_hier_verify(bcast.long all --coll bcast --algo hier_shm --ranks 16,17,24,33
  --count 12287,12288,20000 --levels block:2 --shm-count 256,1000000)
vine_shm_hier_verify(bcast.long_cyclic all --coll bcast --algo hier_shm --ranks 16,24
  --count 12288,20000 --levels cyclic:8 --shm-count 256)
# A non-commutative op: reduce hier_shm is for commutative ops only.
vine_shm_hier_verify(reduce.noncommutative skip --coll reduce --algo hier_shm --ranks 8,12
  --count 1,1000 --levels block:4 --shm-count 256 --noncommutative)
