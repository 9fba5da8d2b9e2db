# Verifier tier, issue 23: the torus algorithms bucket and bine_torus
# (src/coll/phase_torus.h) on torus level maps (`--levels torus:AxBxC`,
# src/coll/torus.h), on uniform maps whose ranks are scattered (not in torus
# order), and refused (skipped) on a map that makes no torus and for a
# non-commutative op.  Each run must report exactly the expected numbers of
# passed and skipped cases, so a map the tool failed to make cannot pass.
# Without a map both run as their one-dimensional forms in the sweeps of
# verify.cmake.
if(VINE_SMPI)
  return()
endif()

set(vine_torus_colls allreduce reduce_scatter reduce_scatter_block allgather bcast reduce)

# vine_torus_verify(name passed skipped args...): verify.torus.<name> runs
# `vine verify args...` and must print "<passed> passed, 0 failed, <skipped>
# skipped".  bcast and reduce have bine_torus only: named alone, bucket
# would be an unknown algorithm there.
function(vine_torus_verify name passed skipped)
  add_test(NAME verify.torus.${name} COMMAND $<TARGET_FILE:vine_cli> verify ${ARGN})
  set_tests_properties(verify.torus.${name} PROPERTIES LABELS verify TIMEOUT 300
    PASS_REGULAR_EXPRESSION "(^|\n)${passed} passed, 0 failed, ${skipped} skipped")
endfunction()

# The cases of one collective on p ranks with the default counts (0, 1,
# p-1, p, p+1, 1000, 4099, the distinct ones) and roots (every root for
# p <= 16, else 0, 1, p/2, p-1): two algorithms in two forms (in place or
# not) for allreduce, the reduce-scatters and allgather; bine_torus alone
# for bcast (no in-place form) and reduce (two forms).
function(vine_torus_cases coll p out)
  math(EXPR pm1 "${p} - 1")
  math(EXPR pp1 "${p} + 1")
  set(counts 0 1 ${pm1} ${p} ${pp1} 1000 4099)
  list(REMOVE_DUPLICATES counts)
  list(LENGTH counts k)
  if(p LESS_EQUAL 16)
    set(nroots ${p})
  else()
    math(EXPR half "${p} / 2")
    set(roots 0 1 ${half} ${pm1})
    list(REMOVE_DUPLICATES roots)
    list(LENGTH roots nroots)
  endif()
  if(coll STREQUAL "bcast")
    math(EXPR n "${k} * ${nroots}")
  elseif(coll STREQUAL "reduce")
    math(EXPR n "2 * ${k} * ${nroots}")
  else()
    math(EXPR n "4 * ${k}")
  endif()
  set(${out} ${n} PARENT_SCOPE)
endfunction()

# The shapes of issue 23, each collective apart (8x8x8 takes about a second
# a collective in a debug build), plus 2x2x3 and 4x4 for every root of a
# non-trivial torus of at most 16 ranks.
foreach(shape 1x1x1 2x2x2 2x2x3 4x4 2x3x5 4x4x4x2 7x1x3 16x16 8x8x8)
  string(REPLACE "x" "*" prod ${shape})
  math(EXPR p "${prod}")
  foreach(coll ${vine_torus_colls})
    vine_torus_cases(${coll} ${p} n)
    set(algos bucket,bine_torus)
    if(coll STREQUAL "bcast" OR coll STREQUAL "reduce")
      set(algos bine_torus)
    endif()
    vine_torus_verify(${shape}.${coll} ${n} 0 --coll ${coll} --algo ${algos} --ranks ${p}
      --levels torus:${shape})
  endforeach()
endforeach()

# bine_torus_multiport on the same shapes, in place and not.  allreduce: the
# parts run side by side where every dimension is a power of two and a
# part holds at least p elements (1000 and 4099 on 2 x 2 x 2, 4099 on 4 x 4 x
# 4 x 2, 8 x 8 x 8 and 16 x 16), as bine_torus elsewhere (2 x 3 x 5, 7 x 1 x
# 3, small counts); 2D parts where the dimensions are equal, two on 4 x 4 x 4
# x 2; the 2D parts on a torus of unequal dimensions from 2^18 elements a part
# (2 x 4 at 2^20 elements and one more; 2^20 - 1 takes two parts); on a torus
# map out of torus order (cyclic:4/torus:4, 4 x 4: 2D parts), and on a map
# that is no torus network (cyclic:4: one part).  bcast and reduce (Bine
# trees, any dimensions, every root up to 16 ranks) split from one element a
# part, so their parts run on 2 x 3 x 5 and 7 x 1 x 3 too, with ranks idle
# in most steps.  The reduce-scatters and allgather split as the allreduce
# does, on the vector of p blocks (verify.torus.multiport.<shape>.blocks);
# on 16 x 16 and 8 x 8 x 8 they copy p slices a part at every rank, which
# the verifier follows element by element (8 x 8 x 8: about 20 s), so the
# default tier takes reduce_scatter and allgather on 16 x 16 at p+1
# elements a block, and `make verify-large` (label verify_large) all three on
# both shapes at every count.
foreach(shape 1x1x1 2x2x2 2x2x3 4x4 2x3x5 4x4x4x2 7x1x3 16x16 8x8x8)
  string(REPLACE "x" "*" prod ${shape})
  math(EXPR p "${prod}")
  set(n 0)
  foreach(coll allreduce bcast reduce)
    vine_torus_cases(${coll} ${p} k)
    if(coll STREQUAL "allreduce")
      math(EXPR k "${k} / 2")
    endif()
    math(EXPR n "${n} + ${k}")
  endforeach()
  vine_torus_verify(multiport.${shape} ${n} 0 --coll allreduce,bcast,reduce
    --algo bine_torus_multiport --ranks ${p} --levels torus:${shape})
  vine_torus_cases(allgather ${p} k)
  math(EXPR n "3 * ${k} / 2")
  set(blocks --coll reduce_scatter,reduce_scatter_block,allgather --algo bine_torus_multiport
    --ranks ${p} --levels torus:${shape})
  if(shape STREQUAL "16x16" OR shape STREQUAL "8x8x8")
    vine_torus_verify(multiport.${shape}.blocks_all ${n} 0 ${blocks})
    set_tests_properties(verify.torus.multiport.${shape}.blocks_all PROPERTIES
      LABELS verify_large)
    if(shape STREQUAL "16x16")
      vine_torus_verify(multiport.${shape}.blocks 4 0 --coll reduce_scatter,allgather
        --algo bine_torus_multiport --ranks ${p} --levels torus:${shape} --count p+1)
    endif()
  else()
    vine_torus_verify(multiport.${shape}.blocks ${n} 0 ${blocks})
  endif()
endforeach()
string(REPLACE ";" "," vine_torus_all "${vine_torus_colls}")
vine_torus_verify(multiport.cyclic4 500 0 --coll ${vine_torus_all} --algo bine_torus_multiport
  --ranks 12,16 --levels cyclic:4 --count 0,1,100,1000,4099)
vine_torus_verify(multiport.cyclic4_torus 500 0 --coll ${vine_torus_all}
  --algo bine_torus_multiport --ranks 12,16 --levels cyclic:4/torus:4 --count 0,1,100,1000,4099)
vine_torus_verify(multiport.2x4_large 6 0 --coll allreduce --algo bine_torus_multiport
  --ranks 8 --levels torus:2x4 --count 1048575,1048576,1048577)
vine_torus_verify(multiport.2x4_large_blocks 12 0 --coll allgather,reduce_scatter_block
  --algo bine_torus_multiport --ranks 8 --levels torus:2x4 --count 131071,131072,131073)

# Uniform maps whose ranks are not in torus order, so the reduce-scatters
# copy the blocks into torus order first and the allgathers out of it at
# the end: rank r on node r mod 4 (4 x 2, 4 x 3, 4 x 4), two levels of
# cyclic groups (2 x 2 x 2, 2 x 2 x 4), and nodes of 4 drawn by hand.
set(vine_torus_both --coll ${vine_torus_all} --algo bucket,bine_torus)
vine_torus_verify(cyclic4 1092 0 ${vine_torus_both} --ranks 8,12,16 --levels cyclic:4)
vine_torus_verify(cyclic22 728 0 ${vine_torus_both} --ranks 8,16 --levels cyclic:2/cyclic:2)
vine_torus_verify(ids 364 0 ${vine_torus_both} --ranks 12
  --levels ids:2,0,1,1,0,2,0,2,1,1,2,0)

# A map that makes no torus (nodes of 1, 3, 5 and 7 ranks) is refused at
# every size from 3 to 16: every case skips.  A non-commutative op skips
# the reductions on 2 x 3 x 5 (140 cases, 238 with multiport) and leaves
# allgather and bcast (56, 98 with multiport).
vine_torus_verify(nonuniform 0 4361 ${vine_torus_both} --ranks 3-16 --levels sizes:1,3,5,7)
vine_torus_verify(noncommutative 98 238 ${vine_torus_both},bine_torus_multiport --ranks 30
  --levels torus:2x3x5 --noncommutative)
