# Verifier tier, Bine algorithms (issue 4): the sizes the issue adds to the
# standard sweep.  verify.<coll> (verify.cmake) already runs every algorithm,
# Bine included, over p = 1..64 and the standard large sizes; these tests add
# p = 96, 2048, 4095 and 4096 for the Bine algorithms alone.  They take about
# 23 minutes of CPU, 11.5 with ctest -j2 on 2 cores (the permuted butterflies
# hold p pieces per rank, p^2 in all), so they carry the label verify_large,
# which `make test` leaves out and `make verify-large` runs.
if(VINE_SMPI)
  return()
endif()
set(VINE_BINE_RANKS "96,2048,4095,4096")
set(VINE_BINE_COUNTS "0,1,p-1,p,p+1,1000,4099")
set(VINE_BINE_ALGOS_bcast bine,bine_large)
set(VINE_BINE_ALGOS_reduce bine,bine_large)
set(VINE_BINE_ALGOS_allreduce bine,bine_large)
set(VINE_BINE_ALGOS_reduce_scatter bine_permute,bine_send,bine_block)
set(VINE_BINE_ALGOS_reduce_scatter_block bine_permute,bine_send,bine_block)
set(VINE_BINE_ALGOS_allgather bine_permute,bine_send,bine_block)
set(VINE_BINE_ALGOS_alltoall bine)
set(VINE_BINE_ALGOS_gather bine)
set(VINE_BINE_ALGOS_scatter bine)

foreach(coll bcast reduce allreduce reduce_scatter reduce_scatter_block allgather alltoall
    gather scatter)
  add_test(NAME verify.bine.${coll}
    COMMAND $<TARGET_FILE:vine_cli> verify --coll ${coll} --algo ${VINE_BINE_ALGOS_${coll}}
            --ranks ${VINE_BINE_RANKS} --count ${VINE_BINE_COUNTS})
  set_tests_properties(verify.bine.${coll} PROPERTIES LABELS verify_large TIMEOUT 3600)
endforeach()
