# Tests of `vine table` (tools/vine_table.c): the best and pairs tables of the
# synthetic result files in tests/data/bench (the cells worked out by hand in
# bench_table.sh), the tables of the tuning file tests/data/tuning/table-small.json,
# experiments/scale/to_bench.sh's conversion of a SimGrid run, scripts/osu-table.sh's
# table of OSU runs, and bad options
# and files.  No MPI.
if(NOT VINE_SMPI)
  foreach(case best pairs tuning scale osu bad)
    add_test(NAME unit.bench_table.${case}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/bench_table.sh ${case} $<TARGET_FILE:vine_cli>
                     ${CMAKE_SOURCE_DIR}/tests/data/bench ${CMAKE_CURRENT_BINARY_DIR}/bench_table_${case})
    set_tests_properties(unit.bench_table.${case} PROPERTIES LABELS unit TIMEOUT 120)
  endforeach()
endif()
