# Tests of `vine plot` (tools/vine_plot.c): the time plot and the heatmap of
# the synthetic result files in tests/data/bench (the cells worked out by hand
# in bench_plot.sh), the heatmap of the tuning file tests/data/tuning/table-small.json,
# the failure without gnuplot, and bad options.  No MPI.
if(NOT VINE_SMPI)
  foreach(case time heatmap tuning nognuplot bad)
    add_test(NAME unit.bench_plot.${case}
             COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/bench_plot.sh ${case} $<TARGET_FILE:vine_cli>
                     ${CMAKE_SOURCE_DIR}/tests/data/bench ${CMAKE_CURRENT_BINARY_DIR}/bench_plot_${case})
    set_tests_properties(unit.bench_plot.${case} PROPERTIES LABELS unit TIMEOUT 120)
  endforeach()
endif()
