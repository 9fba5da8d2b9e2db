# Tests of the `vine sim` command line (tools/vine_sim*.c): tables, the CSV
# and JSON files (checked by sim_file_check, no python needed), the gnuplot
# box plot, skip rows, the platform export's host file and map, and bad
# options exiting 2.  No MPI.
if(NOT VINE_SMPI)
  add_executable(sim_file_check ${CMAKE_CURRENT_LIST_DIR}/sim_file_check.c)
  foreach(case traffic vdist skips allocations file export nognuplot bad)
    add_test(NAME unit.sim_cli.${case}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/sim_cli.sh ${case} $<TARGET_FILE:vine_cli>
                     $<TARGET_FILE:sim_file_check> ${CMAKE_CURRENT_BINARY_DIR}/sim_cli_${case})
    set_tests_properties(unit.sim_cli.${case} PROPERTIES LABELS unit TIMEOUT 120)
  endforeach()
endif()
