# Tests of the `vine bbs` command line (tools/vine_bbs.c): the table beside
# the paper's numbers, the CSV, the gnuplot plot, gnuplot missing, bad options.
# No MPI.
if(NOT VINE_SMPI)
  foreach(case table csv plot nognuplot bad)
    add_test(NAME unit.bbs_cli.${case}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/bbs_cli.sh ${case} $<TARGET_FILE:vine_cli>
                     ${CMAKE_CURRENT_BINARY_DIR}/bbs_cli_${case})
    set_tests_properties(unit.bbs_cli.${case} PROPERTIES LABELS unit TIMEOUT 120)
  endforeach()
endif()
