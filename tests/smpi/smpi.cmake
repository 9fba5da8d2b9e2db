# SimGrid tier: every algorithm of nine collectives on 64 simulated ranks
# under smpirun, compared with SMPI's own collectives (label smpi).  It exists
# only in the SimGrid build: cmake -DVINE_SMPI=ON -DCMAKE_C_COMPILER=smpicc.
if(VINE_SMPI)
  find_program(VINE_SMPIRUN smpirun REQUIRED)
  set(VINE_SMPI_RANKS 64)

  add_executable(test_smpi ${CMAKE_CURRENT_LIST_DIR}/test_smpi.c)
  target_link_libraries(test_smpi PRIVATE vine)

  # smpirun maps ranks to the hosts listed in a host file; the platform file
  # names its hosts node-0 ... node-63.
  set(vine_smpi_hosts "")
  math(EXPR vine_smpi_last "${VINE_SMPI_RANKS} - 1")
  foreach(i RANGE ${vine_smpi_last})
    string(APPEND vine_smpi_hosts "node-${i}\n")
  endforeach()
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/smpi_hosts.txt "${vine_smpi_hosts}")

  # SMPI runs every rank in one process.  It gives each rank its own copy of
  # the program's globals, but those of a shared library only when the library
  # is named in smpi/privatize-libs (by the path of its soname); without it
  # all ranks would share vine's process-wide state.
  # The platform gives each rank a host of its own, a flat map, where the
  # hierarchical algorithms would never run: pretend hosts of 4 ranks
  # (VINE_TOPOLOGY_FAKE_HOSTS, test only) in groups of 4 hosts give every
  # communicator two levels.
  # The nine collectives run in two parts side by side (VINE_TEST_COLLS),
  # about a minute each on the 2-core machine, where one run took two:
  # smpi_collectives_64.<part>.
  set(vine_smpi_part_a allgather,reduce_scatter_block,reduce)
  set(vine_smpi_part_b allreduce,bcast,alltoall,gather,scatter,barrier)
  # Each part has its own temporary directory (smpirun takes it from TMPDIR;
  # its -tmpdir option is broken in SimGrid 3.32): SMPI copies the
  # privatized library there under a fixed name, and two runs started
  # together in one directory remove each other's copy.
  foreach(part a b)
    file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/smpi_tmp_${part})
    add_test(NAME smpi_collectives_64.${part}
      COMMAND ${VINE_SMPIRUN} -np ${VINE_SMPI_RANKS}
        -platform ${CMAKE_CURRENT_LIST_DIR}/cluster64.xml
        -hostfile ${CMAKE_CURRENT_BINARY_DIR}/smpi_hosts.txt
        --cfg=smpi/privatize-libs:$<TARGET_SONAME_FILE:vine>
        --log=root.thres:warning --log=xbt_cfg.thres:warning --log=smpi_config.thres:warning
        $<TARGET_FILE:test_smpi>)
    set_tests_properties(smpi_collectives_64.${part} PROPERTIES LABELS smpi TIMEOUT 1200
      ENVIRONMENT "TMPDIR=${CMAKE_CURRENT_BINARY_DIR}/smpi_tmp_${part};VINE_BBS_GRAPH=grid:8x8;VINE_TOPOLOGY_FAKE_HOSTS=block:4;VINE_TOPOLOGY=block:4;VINE_TEST_COLLS=${vine_smpi_part_${part}}")
  endforeach()
endif()

# Issue 21's study as smoke runs: run.sh with allreduce on 16 ranks of the
# 1,024-host Dragonfly, two sizes, three vine algorithms against SMPI's mpich
# and ompi selectors; study.sh with allreduce and bcast in one smpirun a
# selector, block and random placements (16 of the first 256 hosts), and its
# conversion to vine-bench's format.  The runs must succeed and print a time
# for every case; the times themselves decide nothing.
if(VINE_SMPI)
  set(coll allreduce)
  # Its own TMPDIR, as the 64-rank parts above have theirs.
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/smpi_tmp_${coll})
  add_test(NAME smpi.scale_smoke.${coll}
    COMMAND ${CMAKE_COMMAND} -E env TMPDIR=${CMAKE_CURRENT_BINARY_DIR}/smpi_tmp_${coll}
      COLL=${coll} NP=16 SIZES=8,65536 ALGOS=auto,recursive_doubling,rabenseifner
      VINE_LIB=$<TARGET_SONAME_FILE:vine> VINE=/nonexistent
      OUT=${CMAKE_CURRENT_BINARY_DIR}/scale_${coll}
      sh ${PROJECT_SOURCE_DIR}/experiments/scale/run.sh)
  # The last line of the ompi run; a failed run says so (run.sh).
  set_tests_properties(smpi.scale_smoke.${coll} PROPERTIES LABELS smpi TIMEOUT 300
    PASS_REGULAR_EXPRESSION "ompi,${coll},smpi,65536,16,[0-9.]+,smpi"
    FAIL_REGULAR_EXPRESSION "failed|usage")
  set(hosts "")
  foreach(i RANGE 255)
    string(APPEND hosts "node-${i}\n")
  endforeach()
  file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/scale_study_hosts.txt "${hosts}")
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/smpi_tmp_study)
  set(study ${CMAKE_CURRENT_BINARY_DIR}/scale_study)
  # Block: (auto, bine, smpi) x 2 sizes x 2 collectives under mpich, smpi x 4
  # under ompi = 16 cases; random: bcast only, 6 + 2 = 8 cases.  PROBE=yes:
  # each placement's vine-bench probe (its file has SMPI's large-message
  # term) gives auto its parameters.
  add_test(NAME smpi.scale_study
    COMMAND ${CMAKE_COMMAND} -E env TMPDIR=${CMAKE_CURRENT_BINARY_DIR}/smpi_tmp_study
      NP=16 PLATFORM=${PROJECT_SOURCE_DIR}/experiments/scale/dragonfly-1024.xml
      HOSTS=${CMAKE_CURRENT_BINARY_DIR}/scale_study_hosts.txt "PLACEMENTS=block random:3"
      "COLLS=allreduce bcast" RANDOM_COLLS=bcast VEC_SIZES=8,65536 ALGOS=auto,bine
      VINE_LIB=$<TARGET_SONAME_FILE:vine> VINE=/nonexistent OUT=${study} BUDGET=240
      PROBE=yes VINE_BENCH=$<TARGET_FILE:vine-bench>
      sh -c "sh ${PROJECT_SOURCE_DIR}/experiments/scale/study.sh &&
             grep -q rndv_bytes ${study}/block/cost-16.json &&
             grep -q rndv_bytes ${study}/random-3/cost-16.json &&
             test $(grep -c , ${study}/block/raw-16.csv) = 16 &&
             test $(grep -c , ${study}/random-3/raw-16.csv) = 8 &&
             test $(grep -c ',ok,' ${study}/random-3/bench-16.csv) = 8 &&
             test $(grep -c . ${study}/random-3/hosts-16.txt) = 16 &&
             ! cmp -s ${study}/block/hosts-16.txt ${study}/random-3/hosts-16.txt &&
             echo study smoke passed")
  set_tests_properties(smpi.scale_study PROPERTIES LABELS smpi TIMEOUT 300
    PASS_REGULAR_EXPRESSION "study smoke passed")
endif()

# vine-bench probe under SimGrid: the large-message (rendezvous) term it fits
# must be SMPI's own latency factor above 64 KiB (probe_rndv.sh says which
# numbers and why), an independent reference for vine__cost_fit_pair.
if(VINE_SMPI)
  add_dependencies(test_smpi vine-bench)
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/smpi_tmp_probe)
  add_test(NAME smpi.probe_rndv
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/probe_rndv.sh ${VINE_SMPIRUN}
      ${CMAKE_CURRENT_LIST_DIR}/cluster64.xml ${CMAKE_CURRENT_BINARY_DIR}/smpi_hosts.txt
      $<TARGET_SONAME_FILE:vine> $<TARGET_FILE:vine-bench> ${CMAKE_CURRENT_BINARY_DIR}/probe_rndv)
  set_tests_properties(smpi.probe_rndv PROPERTIES LABELS smpi TIMEOUT 300
    ENVIRONMENT "TMPDIR=${CMAKE_CURRENT_BINARY_DIR}/smpi_tmp_probe"
    PASS_REGULAR_EXPRESSION "probe_rndv: ok")
endif()

# vine-tune's model fit under SimGrid: the large-message term it fits from the
# collectives' medians must appear at SMPI's threshold with the per-message
# factors on and not at all with them off (tune_rndv.sh).
if(VINE_SMPI)
  add_dependencies(test_smpi vine-tune)
  file(MAKE_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}/smpi_tmp_tune)
  add_test(NAME smpi.tune_rndv
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/tune_rndv.sh ${VINE_SMPIRUN}
      ${CMAKE_CURRENT_LIST_DIR}/cluster64.xml ${CMAKE_CURRENT_BINARY_DIR}/smpi_hosts.txt
      $<TARGET_SONAME_FILE:vine> $<TARGET_FILE:vine-tune> ${CMAKE_CURRENT_BINARY_DIR}/tune_rndv)
  set_tests_properties(smpi.tune_rndv PROPERTIES LABELS smpi TIMEOUT 300
    ENVIRONMENT "TMPDIR=${CMAKE_CURRENT_BINARY_DIR}/smpi_tmp_tune"
    PASS_REGULAR_EXPRESSION "tune_rndv: ok")
endif()
