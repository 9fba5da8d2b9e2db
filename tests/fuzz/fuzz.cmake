# Replays of the fuzz harnesses (tests/fuzz/fuzz_parsers.c, run by
# tests/fuzz/run.sh with libFuzzer) on fixed inputs: the inputs that found
# bugs (tests/data/fuzz/NAME/) and the data files of each parser's kind, with
# the project's compiler, so that the ASan build checks them under the
# sanitizers.  No MPI.
if(NOT VINE_SMPI)
  set(vine_fuzz_data ${CMAKE_SOURCE_DIR}/tests/data)
  set(vine_fuzz_names topo_spec topo_edges topo_slurm topo_ibnet topo_sg hostgroups levels cost
      results traffic graph place hostlist sched tuning)
  set(vine_fuzz_seeds_topo_edges ${vine_fuzz_data}/topo/edges.txt ${vine_fuzz_data}/bbs)
  set(vine_fuzz_seeds_topo_slurm ${vine_fuzz_data}/topo/slurm-tree.conf)
  set(vine_fuzz_seeds_topo_ibnet ${vine_fuzz_data}/topo/ibnet-fattree.txt
      ${vine_fuzz_data}/topo/ibnet-dfplus.txt)
  set(vine_fuzz_seeds_topo_sg ${vine_fuzz_data}/topo/simgrid-dragonfly.xml
      ${vine_fuzz_data}/topo/simgrid-fattree.xml ${vine_fuzz_data}/topo/simgrid-torus.xml)
  set(vine_fuzz_seeds_tuning ${vine_fuzz_data}/tuning)
  set(vine_fuzz_seeds_results ${vine_fuzz_data}/bench/results_p2.json
      ${vine_fuzz_data}/bench/results_p4.csv)
  add_executable(fuzz_replay ${CMAKE_CURRENT_LIST_DIR}/replay.c
                 ${CMAKE_CURRENT_LIST_DIR}/fuzz_parsers.c ${CMAKE_CURRENT_LIST_DIR}/fuzz_sched.c)
  target_link_libraries(fuzz_replay PRIVATE vine_core_static)
  foreach(name ${vine_fuzz_names})
    set(vine_fuzz_inputs ${vine_fuzz_seeds_${name}})
    if(EXISTS ${vine_fuzz_data}/fuzz/${name})
      list(APPEND vine_fuzz_inputs ${vine_fuzz_data}/fuzz/${name})
    endif()
    add_test(NAME unit.fuzz_replay.${name} COMMAND fuzz_replay ${name} ${vine_fuzz_inputs})
    set_tests_properties(unit.fuzz_replay.${name} PROPERTIES LABELS unit TIMEOUT 120)
  endforeach()
endif()
