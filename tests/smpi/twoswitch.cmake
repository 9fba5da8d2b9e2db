# Smoke test of the issue-8 SimGrid experiment (experiments/twoswitch): the
# driver, built here against this build's libvine, runs the whole pipeline of
# run.sh in --quick mode (296 + 96 simulated ranks on the two-switch platform,
# blocks of 0 to 64 B, gather and scatter, quiet and busy).  It passes when
# run.sh exits 0 (every result checked, every call served by the algorithm
# asked for) and all four tables were printed.  About 30 s on 2 cores.
if(VINE_SMPI)
  set(vine_twoswitch_dir ${PROJECT_SOURCE_DIR}/experiments/twoswitch)
  add_executable(twoswitch_exp ${vine_twoswitch_dir}/gather_exp.c)
  target_link_libraries(twoswitch_exp PRIVATE vine)
  # `make test-smpi` builds the target test_smpi only (smpi.cmake): build
  # the driver with it.
  if(TARGET test_smpi)
    add_dependencies(test_smpi twoswitch_exp)
  endif()

  # Its own TMPDIR for smpirun's copy of the privatized library (smpi.cmake).
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/smpi_tmp_twoswitch)
  add_test(NAME smpi_twoswitch_quick
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/twoswitch_smoke.sh ${vine_twoswitch_dir}/run.sh
      ${CMAKE_CURRENT_BINARY_DIR}/twoswitch)
  set_tests_properties(smpi_twoswitch_quick PROPERTIES LABELS smpi TIMEOUT 300
    ENVIRONMENT "TMPDIR=${CMAKE_CURRENT_BINARY_DIR}/smpi_tmp_twoswitch;VINE_LIB=$<TARGET_SONAME_FILE:vine>;DRIVER=$<TARGET_FILE:twoswitch_exp>")
endif()
