# Test of scripts/demo.sh, what `make demo` runs (label mpi: its sweep runs
# under the MPI launcher).  demo_check.sh runs it small on 2 ranks with the
# built vine-bench and vine and judges its files and summary:
#   mpi.demo.run.np2        every announced file and plot is there, the table
#       of vine's best against the MPI library agrees with the CSV
#   mpi.demo.nognuplot.np2  gnuplot out of PATH: the plots are skipped, the
#       rest comes, exit 0
#   mpi.demo.corrupt.np2    a failing check of the sweep (VINE_BENCH_CORRUPT):
#       the other steps still run, the summary names the sweep, exit 1
if(VINE_SMPI OR NOT TARGET vine-bench OR NOT TARGET vine_cli)
  return()
endif()
include(${CMAKE_SOURCE_DIR}/tests/mpi/launcher.cmake)

foreach(case run nognuplot corrupt)
  add_test(NAME mpi.demo.${case}.np2
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/demo_check.sh ${case} ${CMAKE_SOURCE_DIR}/scripts/demo.sh
            $<TARGET_FILE_DIR:vine-bench> ${CMAKE_CURRENT_BINARY_DIR}/demo_${case}
            sh ${VINE_MPIRUN})
  set_tests_properties(mpi.demo.${case}.np2 PROPERTIES LABELS mpi TIMEOUT 300
    ENVIRONMENT "${VINE_MPI_TEST_ENV}")
endforeach()
