# The shm family (docs/shm.md) under the verifier: results, the flag
# protocol's race freedom and deadlock freedom, over two calls in a row
# (three for the parity and eager slots; docs/verify.md), at node sizes (every root up to p = 16, the tool's
# default), with a small region (every large case
# pipelined in chunks) and a large one, single copy on and off, every
# collective, the reductions with a non-commutative op too (from 33 ranks the
# small bcast runs down its tree of slots); and allreduce
# hier_shm (shm in the nodes, Bine across) on level maps.  The issue's full
# sweep (every node size 1-64, 100, 127, 128, the region of 64 elements)
# takes about half an hour of CPU: `make verify-large` (label verify_large),
# which also holds the node sizes 100 and 128 (they took half of this
# sweep's time, about 80 s of the 30 minutes `make test` may take).
if(VINE_SMPI)
  return()
endif()
# allgatherv, gatherv, scatterv, alltoallv and alltoallw with every count distribution and
# both layouts (the tool's default).
set(vine_shm_colls bcast reduce allreduce allgather reduce_scatter reduce_scatter_block
  alltoall gather scatter barrier allgatherv gatherv scatterv alltoallv alltoallw)
set(vine_shm_counts "0,1,p-1,p,p+1,1000,4099")
set(vine_shm_ranks "1-33,48,63,64")
set(vine_shm_nc_ranks "1-17,33,64")
set(vine_shm_single_ranks "1-5,8,9,16,17")
if(VINE_SANITIZE)
  set(vine_shm_ranks "1-9,17,33")
  set(vine_shm_nc_ranks "1-9,17")
  set(vine_shm_single_ranks "1-4,9")
endif()
foreach(coll ${vine_shm_colls})
  add_test(NAME verify.shm.${coll}
    COMMAND $<TARGET_FILE:vine_cli> verify --coll ${coll} --algo shm --ranks ${vine_shm_ranks}
            --count ${vine_shm_counts} --shm-count 256,1000000)
  set_tests_properties(verify.shm.${coll} PROPERTIES LABELS verify TIMEOUT 900)
  add_test(NAME verify.shm_large.${coll}
    COMMAND $<TARGET_FILE:vine_cli> verify --coll ${coll} --algo shm --ranks 1-64,100,127,128
            --count ${vine_shm_counts})
  set_tests_properties(verify.shm_large.${coll} PROPERTIES LABELS verify_large TIMEOUT 3600)
endforeach()
foreach(coll reduce allreduce reduce_scatter reduce_scatter_block)
  add_test(NAME verify.shm.${coll}.noncommutative
    COMMAND $<TARGET_FILE:vine_cli> verify --coll ${coll} --algo shm --ranks ${vine_shm_nc_ranks}
            --count ${vine_shm_counts} --shm-count 256,1000000 --noncommutative)
  set_tests_properties(verify.shm.${coll}.noncommutative PROPERTIES LABELS verify TIMEOUT 900)
endforeach()
# scatter's single copy serves blocks of 256 KiB and more (the counts above stay below).
add_test(NAME verify.shm.scatter.single
  COMMAND $<TARGET_FILE:vine_cli> verify --coll scatter --algo shm --ranks ${vine_shm_single_ranks}
          --count 262143,262144,300000 --shm-count 1000000)
set_tests_properties(verify.shm.scatter.single PROPERTIES LABELS verify TIMEOUT 900)
# alltoallv shm (alltoallw runs the same builder): with the region of 256 elements only
# up to 5 ranks have parts of a region (the rest go as messages), so chunks of 16 elements
# in a large region make many slots reused at every size up to 17; blocks from 256 KiB go
# as messages.
add_test(NAME verify.shm.alltoallv.seg
  COMMAND $<TARGET_FILE:vine_cli> verify --coll alltoallv --algo shm --ranks 1-17
          --count ${vine_shm_counts} --shm-count 1000000 --seg 16)
add_test(NAME verify.shm.alltoallv.messages
  COMMAND $<TARGET_FILE:vine_cli> verify --coll alltoallv --algo shm --ranks 2,3,5,9
          --count 262143,262144,300000 --shm-count 1000000)
# gatherv shm on 2 ranks sends blocks from 8 KiB below 512 KiB as messages.
add_test(NAME verify.shm.gatherv.messages
  COMMAND $<TARGET_FILE:vine_cli> verify --coll gatherv --algo shm --ranks 2,3
          --count 4095,4096,8192,262143,300000 --shm-count 256,1000000)
set_tests_properties(verify.shm.alltoallv.seg verify.shm.alltoallv.messages
  verify.shm.gatherv.messages PROPERTIES LABELS verify TIMEOUT 900)
# hier_shm: nodes of 4 in blocks and dealt round-robin, nodes of 8; a map with
# nodes of different sizes is a skip (its restriction).
foreach(m "block4;block:4;8,12,16,20,24,28,32,64" "cyclic4;cyclic:4;8,12,16,20,24,32"
    "block8;block:8;16,24,32,64,128" "uneven;sizes:2,3;5-20")
  list(GET m 0 name)
  list(GET m 1 spec)
  list(GET m 2 ranks)
  add_test(NAME verify.shm.hier_shm.${name}
    COMMAND $<TARGET_FILE:vine_cli> verify --coll allreduce --algo hier_shm --ranks ${ranks}
            --count ${vine_shm_counts} --levels ${spec} --shm-count 256,1000000)
  set_tests_properties(verify.shm.hier_shm.${name} PROPERTIES LABELS verify TIMEOUT 900)
endforeach()
