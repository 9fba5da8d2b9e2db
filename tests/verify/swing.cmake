# Verifier tier, issue 23: the swing algorithms (src/coll/phase_swing.h) of
# allreduce, reduce_scatter, reduce_scatter_block and allgather on the torus
# shapes of the issue (`--levels torus:AxBxC`, src/coll/torus.h), on one
# dimension (no map) at every p up to 33 and some larger ones, on uniform
# maps whose ranks are not in torus order, and refused (skipped) on a map
# that makes no torus.  Each run must report exactly the expected numbers of
# passed and skipped cases, so a map the tool failed to make cannot pass.
# verify.cmake's sweeps run the one-dimensional forms too.
if(VINE_SMPI)
  return()
endif()

set(vine_swing_colls allreduce reduce_scatter reduce_scatter_block allgather)

# vine_swing_verify(name passed skipped args...): verify.swing.<name> runs
# `vine verify --algo swing args...` and must print "<passed> passed, 0
# failed, <skipped> skipped".
function(vine_swing_verify name passed skipped)
  add_test(NAME verify.swing.${name} COMMAND $<TARGET_FILE:vine_cli> verify --algo swing ${ARGN})
  set_tests_properties(verify.swing.${name} PROPERTIES LABELS verify TIMEOUT 300
    PASS_REGULAR_EXPRESSION "(^|\n)${passed} passed, 0 failed, ${skipped} skipped")
endfunction()

# The cases of one collective at p ranks: the distinct counts of 0, 1,
# p-1, p, p+1, 1000, 4099, each in place and not.
function(vine_swing_cases p out)
  math(EXPR pm1 "${p} - 1")
  math(EXPR pp1 "${p} + 1")
  set(counts 0 1 ${pm1} ${p} ${pp1} 1000 4099)
  list(REMOVE_DUPLICATES counts)
  list(LENGTH counts k)
  math(EXPR n "2 * ${k}")
  set(${out} ${n} PARENT_SCOPE)
endfunction()

set(vine_swing_counts --count 0,1,p-1,p,p+1,1000,4099)

# The shapes of issue 23, each collective apart, plus 2x2x3 and 6x5x7 (a
# fold in several dimensions).  The verifier takes about half a second a
# case at 512 ranks in a debug build, so 16x16 and 8x8x8 run each form (in
# place or not) apart.
foreach(shape 1x1x1 2x2x2 2x2x3 2x3x5 4x4x4x2 7x1x3 6x5x7 16x16 8x8x8)
  string(REPLACE "x" "*" prod ${shape})
  math(EXPR p "${prod}")
  vine_swing_cases(${p} n)
  foreach(coll ${vine_swing_colls})
    if(p LESS 256)
      vine_swing_verify(${shape}.${coll} ${n} 0 --coll ${coll} --ranks ${p}
        --levels torus:${shape} ${vine_swing_counts})
    else()
      math(EXPR half "${n} / 2")
      foreach(form yes no)
        vine_swing_verify(${shape}.${coll}.inplace_${form} ${half} 0 --coll ${coll} --ranks ${p}
          --levels torus:${shape} --inplace ${form} ${vine_swing_counts})
      endforeach()
    endif()
  endforeach()
endforeach()

# One dimension (no map): p = 1 .. 33, 64, 100, 127.
set(vine_swing_flat 0)
foreach(p RANGE 1 33)
  vine_swing_cases(${p} n)
  math(EXPR vine_swing_flat "${vine_swing_flat} + ${n}")
endforeach()
foreach(p 64 100 127)
  vine_swing_cases(${p} n)
  math(EXPR vine_swing_flat "${vine_swing_flat} + ${n}")
endforeach()
foreach(coll ${vine_swing_colls})
  vine_swing_verify(flat.${coll} ${vine_swing_flat} 0 --coll ${coll} --ranks 1-33,64,100,127
    ${vine_swing_counts})
endforeach()

# Uniform maps whose ranks are not in torus order (rank r on node r mod 4:
# 4 x 2, 4 x 3, 4 x 4; two levels of cyclic groups: 2 x 2 x 2, 2 x 2 x 4;
# nodes of 4 drawn by hand: 3 x 4), all four collectives.
string(REPLACE ";" "," vine_swing_all "${vine_swing_colls}")
vine_swing_verify(cyclic4 168 0 --coll ${vine_swing_all} --ranks 8,12,16 --levels cyclic:4
  ${vine_swing_counts})
vine_swing_verify(cyclic22 112 0 --coll ${vine_swing_all} --ranks 8,16
  --levels cyclic:2/cyclic:2 ${vine_swing_counts})
vine_swing_verify(ids 56 0 --coll ${vine_swing_all} --ranks 12
  --levels ids:2,0,1,1,0,2,0,2,1,1,2,0 ${vine_swing_counts})

# A map that makes no torus (nodes of 1, 3, 5 and 7 ranks) is refused at
# every size from 3 to 16: every case skips.  A non-commutative op skips
# the reductions on 2 x 3 x 5 and leaves allgather (14 cases).
vine_swing_verify(nonuniform 0 784 --coll ${vine_swing_all} --ranks 3-16 --levels sizes:1,3,5,7
  ${vine_swing_counts})
vine_swing_verify(noncommutative 14 42 --coll ${vine_swing_all} --ranks 30
  --levels torus:2x3x5 --noncommutative ${vine_swing_counts})
