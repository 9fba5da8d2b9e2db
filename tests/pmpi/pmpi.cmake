# libvine-mpi tests (labels mpi and pmpi): tests/pmpi/app.c, a program that
# uses plain MPI only, run through tests/pmpi/run_app.sh, which checks its
# results and the VINE_VERBOSE lines that show who served each collective:
#   pmpi.preload.npN  the program built against MPI alone, libvine-mpi.so
#                     loaded by LD_PRELOAD in the ranks;
#   pmpi.linked.npN   the same source linked with -lvine-mpi;
#   pmpi.inter.npN    preloaded, plus MPI_Allreduce and MPI_Bcast on an
#                     intercommunicator, which must be passed to MPI;
#   pmpi.install      (label install) both ways with the installed library.
# tests/pmpi/app_nb.c, the nonblocking and persistent calls (MPI_I<coll>,
# MPI_<Coll>_init where the header is MPI 4) completed by MPI's completion
# calls, through the same script:
#   pmpi.nb_preload.npN, pmpi.nb_linked.npN  as above;
#   pmpi.nb_tuned.npN, pmpi.nb_shm.npN       with the two tuning files below;
#   pmpi.nb_inter.np4                        the intercommunicator part.
# The mpi label puts them in every stage that runs the MPI tests (build/,
# build-asan/, build-mpich/).  Not in the SimGrid build, which has no
# libvine-mpi (cmake/pmpi.cmake).
if(VINE_SMPI)
  return()
endif()

include(${CMAKE_CURRENT_LIST_DIR}/../mpi/launcher.cmake)

add_executable(pmpi_app ${CMAKE_CURRENT_LIST_DIR}/app.c)
target_link_libraries(pmpi_app PRIVATE MPI::MPI_C)
# vine-mpi first, so that the program's MPI_Bcast and the others bind to it
# and not to the MPI library's (mpicc app.c -lvine-mpi orders them so too).
add_executable(pmpi_app_linked ${CMAKE_CURRENT_LIST_DIR}/app.c)
target_link_libraries(pmpi_app_linked PRIVATE vine-mpi MPI::MPI_C)
add_executable(pmpi_app_nb ${CMAKE_CURRENT_LIST_DIR}/app_nb.c)
target_link_libraries(pmpi_app_nb PRIVATE MPI::MPI_C)
add_executable(pmpi_app_nb_linked ${CMAKE_CURRENT_LIST_DIR}/app_nb.c)
target_link_libraries(pmpi_app_nb_linked PRIVATE vine-mpi MPI::MPI_C)

# What LD_PRELOAD names in the ranks.  In the sanitizer build libvine-mpi.so
# needs the ASan runtime, which refuses to start unless it is the first
# library loaded (a preloaded library comes before the program's own
# dependencies, libasan among them): preload the runtime first.
set(vine_pmpi_preload $<TARGET_LINKER_FILE:vine-mpi>)
if(VINE_SANITIZE)
  execute_process(COMMAND ${CMAKE_C_COMPILER} -print-file-name=libasan.so
    OUTPUT_VARIABLE vine_libasan OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE vine_libasan_rc)
  if(vine_libasan_rc EQUAL 0 AND IS_ABSOLUTE "${vine_libasan}" AND EXISTS "${vine_libasan}")
    set(vine_pmpi_preload "${vine_libasan}:${vine_pmpi_preload}")
  else()
    # Without the runtime's path the preloading tests cannot start: only the
    # linked program is tested.
    message(STATUS "vine: no libasan.so from ${CMAKE_C_COMPILER}: the pmpi preload tests are off")
    set(vine_pmpi_preload "")
  endif()
endif()

# vine_pmpi_test(name np program [PRELOAD] [EXPECT world|inter]
#                [TUNING file SERVED "coll=algo ..."] [COMMS name ...]
#                [ALSO "coll ..."] [ARGS ...])
# COMMS: communicators besides pmpi_split that must have a 'served by' line
# for every collective (run_app.sh --comm); ALSO: collectives besides the
# ten that must have them (run_app.sh --also).
function(vine_pmpi_test name np program)
  cmake_parse_arguments(ARG "PRELOAD" "EXPECT;TUNING;SERVED;ALSO" "COMMS;ARGS" ${ARGN})
  if(NOT ARG_EXPECT)
    set(ARG_EXPECT world)
  endif()
  set(preload)
  if(ARG_PRELOAD)
    set(preload --preload ${vine_pmpi_preload})
  endif()
  set(tuning)
  if(ARG_TUNING)
    set(tuning --tuning ${ARG_TUNING} --served ${ARG_SERVED})
  endif()
  set(comms)
  foreach(comm IN LISTS ARG_COMMS)
    list(APPEND comms --comm ${comm})
  endforeach()
  if(ARG_ALSO)
    list(APPEND comms --also ${ARG_ALSO})
  endif()
  set(test pmpi.${name}.np${np})
  add_test(NAME ${test}
    COMMAND sh ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/run_app.sh
            --launcher ${VINE_MPIRUN} --np-flag ${VINE_MPIRUN_NP} --flavor ${vine_mpi_flavor}
            --np ${np} ${preload} --expect ${ARG_EXPECT} ${tuning} ${comms}
            -- $<TARGET_FILE:${program}>
            ${ARG_ARGS})
  set_tests_properties(${test} PROPERTIES LABELS "mpi;pmpi" TIMEOUT 120
    ENVIRONMENT "${VINE_MPI_TEST_ENV}")
endfunction()

foreach(np 1 3 4)
  if(vine_pmpi_preload)
    vine_pmpi_test(preload ${np} pmpi_app PRELOAD)
  endif()
  vine_pmpi_test(linked ${np} pmpi_app_linked)
endforeach()
# A tuning file (tests/data/tuning/pmpi-app.json) decides every collective on
# MPI_COMM_WORLD, the MPI library's own ("mpi") for half of them.
set(vine_pmpi_served "bcast=linear reduce=linear allreduce=mpi allgather=ring \
reduce_scatter=mpi reduce_scatter_block=recursive_doubling alltoall=mpi gather=linear \
scatter=mpi barrier=mpi")
foreach(np 3 4)
  if(vine_pmpi_preload)
    vine_pmpi_test(tuned_preload ${np} pmpi_app PRELOAD
      TUNING ${CMAKE_SOURCE_DIR}/tests/data/tuning/pmpi-app.json SERVED ${vine_pmpi_served})
  endif()
  vine_pmpi_test(tuned_linked ${np} pmpi_app_linked
    TUNING ${CMAKE_SOURCE_DIR}/tests/data/tuning/pmpi-app.json SERVED ${vine_pmpi_served})
endforeach()
# The same with a file that gives every collective to the shm family
# (docs/shm.md): the drop-in on the node segment.
set(vine_pmpi_shm "bcast=shm reduce=shm allreduce=shm allgather=shm reduce_scatter=shm \
reduce_scatter_block=shm alltoall=shm gather=shm scatter=shm barrier=shm")
foreach(np 3 4)
  if(vine_pmpi_preload)
    vine_pmpi_test(shm_preload ${np} pmpi_app PRELOAD
      TUNING ${CMAKE_SOURCE_DIR}/tests/data/tuning/pmpi-shm.json SERVED ${vine_pmpi_shm})
  endif()
  vine_pmpi_test(shm_linked ${np} pmpi_app_linked
    TUNING ${CMAKE_SOURCE_DIR}/tests/data/tuning/pmpi-shm.json SERVED ${vine_pmpi_shm})
endforeach()
if(vine_pmpi_preload)
  vine_pmpi_test(inter 3 pmpi_app PRELOAD EXPECT inter ARGS inter)
  vine_pmpi_test(inter 4 pmpi_app PRELOAD EXPECT inter ARGS inter)
endif()

# The nonblocking program.  Its collectives run on MPI_COMM_WORLD, pmpi_split,
# pmpi_dup and, where MPI's header is MPI 4 (MPICH 4.0; Open MPI 4.1's says
# 3.1), the persistent ones on pmpi_persist and the blocking large-count
# forms on pmpi_blockc: each must show vine's line (vine_pmpi_nb_lines), for
# the ten and for the irregular collectives and scans.
# Without the preload (the sanitizer build without libasan's path), the
# linked program takes the preloaded runs' places.
set(vine_pmpi_nb_comms pmpi_dup)
if(MPI_C_VERSION_MAJOR GREATER_EQUAL 4)
  list(APPEND vine_pmpi_nb_comms pmpi_persist pmpi_blockc)
endif()
set(vine_pmpi_nb_also "allgatherv alltoallv alltoallw gatherv scatterv scan exscan")
set(vine_pmpi_nb_lines COMMS ${vine_pmpi_nb_comms} ALSO ${vine_pmpi_nb_also})
if(vine_pmpi_preload)
  set(vine_pmpi_nb pmpi_app_nb PRELOAD)
else()
  set(vine_pmpi_nb pmpi_app_nb_linked)
endif()
if(vine_pmpi_preload)
  foreach(np 1 3 4)
    vine_pmpi_test(nb_preload ${np} pmpi_app_nb PRELOAD ${vine_pmpi_nb_lines})
  endforeach()
endif()
vine_pmpi_test(nb_linked 4 pmpi_app_nb_linked ${vine_pmpi_nb_lines})
foreach(np 3 4)
  vine_pmpi_test(nb_tuned ${np} ${vine_pmpi_nb} ${vine_pmpi_nb_lines}
    TUNING ${CMAKE_SOURCE_DIR}/tests/data/tuning/pmpi-app.json SERVED ${vine_pmpi_served})
  vine_pmpi_test(nb_shm ${np} ${vine_pmpi_nb} ${vine_pmpi_nb_lines}
    TUNING ${CMAKE_SOURCE_DIR}/tests/data/tuning/pmpi-shm.json SERVED ${vine_pmpi_shm})
endforeach()
vine_pmpi_test(nb_inter 4 ${vine_pmpi_nb} EXPECT inter ${vine_pmpi_nb_lines} ARGS inter)

# tests/pmpi/fortran.F90, a Fortran program, preloaded (run_fortran.sh):
#   pmpi.fortran.npN
# built with MPI's Fortran wrapper beside its C one (mpicc -> mpif90,
# mpicc.mpich -> mpif90.mpich), outside CMake's languages, so that the
# build needs no Fortran compiler: without the wrapper, or where it cannot
# build a program that uses both modules, mpi and mpi_f08, the test is not
# made, and configure says so (a broken fortran.F90 fails the build).
# Debian's libopenmpi-dev and libmpich-dev bring gfortran.
get_filename_component(vine_mpi_dir "${MPI_C_COMPILER}" DIRECTORY)
get_filename_component(vine_mpi_cc "${MPI_C_COMPILER}" NAME)
string(REPLACE "mpicc" "mpif90" vine_mpi_fc "${vine_mpi_cc}")
set(vine_mpi_fc "${vine_mpi_dir}/${vine_mpi_fc}")
set(vine_fortran_flags -cpp -O2 -Wall -Werror)
if(MPI_C_VERSION_MAJOR GREATER_EQUAL 4)
  list(APPEND vine_fortran_flags -DVINE_MPI4)
endif()
set(vine_fortran_ok FALSE)
if(vine_pmpi_preload AND NOT vine_mpi_cc STREQUAL vine_mpi_fc AND EXISTS "${vine_mpi_fc}")
  set(vine_fortran_probe ${CMAKE_BINARY_DIR}/CMakeFiles/vine-fortran-probe)
  file(WRITE ${vine_fortran_probe}/probe.f90
    "subroutine a\n  use mpi\nend subroutine\nsubroutine b\n  use mpi_f08\nend subroutine\n"
    "program probe\nend program\n")
  execute_process(COMMAND ${vine_mpi_fc} probe.f90 -o probe
    WORKING_DIRECTORY ${vine_fortran_probe} RESULT_VARIABLE vine_fortran_rc
    OUTPUT_QUIET ERROR_QUIET)
  if(vine_fortran_rc EQUAL 0)
    set(vine_fortran_ok TRUE)
  endif()
endif()
if(vine_fortran_ok)
  set(vine_fortran_bin ${CMAKE_CURRENT_BINARY_DIR}/pmpi_fortran)
  add_custom_command(OUTPUT ${vine_fortran_bin}
    COMMAND ${vine_mpi_fc} ${vine_fortran_flags} ${CMAKE_CURRENT_LIST_DIR}/fortran.F90
            -o ${vine_fortran_bin}
    WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}
    DEPENDS ${CMAKE_CURRENT_LIST_DIR}/fortran.F90
    COMMENT "Building the Fortran program pmpi_fortran with ${vine_mpi_fc}")
  add_custom_target(pmpi_fortran ALL DEPENDS ${vine_fortran_bin})
  foreach(np 1 3 4)
    add_test(NAME pmpi.fortran.np${np}
      COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/run_fortran.sh
              --launcher ${VINE_MPIRUN} --np-flag ${VINE_MPIRUN_NP} --flavor ${vine_mpi_flavor}
              --np ${np} --preload ${vine_pmpi_preload} -- ${vine_fortran_bin})
    set_tests_properties(pmpi.fortran.np${np} PROPERTIES LABELS "mpi;pmpi" TIMEOUT 120
      ENVIRONMENT "${VINE_MPI_TEST_ENV}")
  endforeach()
else()
  message(STATUS "vine: no Fortran MPI wrapper (${vine_mpi_fc}) with the mpi and mpi_f08 "
    "modules: the pmpi.fortran tests are off")
endif()

# The installed library, preloaded and linked (label install, as
# tests/install; not in the sanitizer build, whose libraries need the
# sanitizer runtime in programs built outside CMake).
if(NOT VINE_SANITIZE)
  add_test(NAME pmpi.install
    COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/check_install.sh ${CMAKE_BINARY_DIR}
            ${CMAKE_BINARY_DIR}/pmpi-install-test ${MPI_C_COMPILER} ${vine_mpi_flavor}
            ${VINE_MPIRUN} ${VINE_MPIRUN_NP})
  set_tests_properties(pmpi.install PROPERTIES LABELS "install;pmpi" TIMEOUT 300
    ENVIRONMENT "${VINE_MPI_TEST_ENV}")
endif()

# tests/pmpi/stress.c: 2000 random calls of the seventeen collectives, blocking
# and nonblocking mixed, each compared with the MPI library's own (PMPI_) on a
# private dup: on 1, 3 and 5 ranks; on two pretend nodes of two ranks (the
# hierarchical algorithms and their shm node phases); with the progress
# thread; with node segments of 4 KiB (regions reused within one call).
add_executable(pmpi_stress ${CMAKE_CURRENT_LIST_DIR}/stress.c)
target_link_libraries(pmpi_stress PRIVATE vine-mpi MPI::MPI_C)
set(vine_pmpi_np_flag ${VINE_MPIRUN_NP})
if(NOT vine_pmpi_np_flag)
  set(vine_pmpi_np_flag -np)
endif()
# vine_pmpi_stress(name np seed [env ...]): pmpi.<name>.np<np>.
function(vine_pmpi_stress name np seed)
  set(args 2000 ${seed})
  if("VINE_PROGRESS_THREAD=1" IN_LIST ARGN)
    list(APPEND args multiple)
  endif()
  set(test pmpi.${name}.np${np})
  add_test(NAME ${test}
    COMMAND ${VINE_MPIRUN} ${vine_pmpi_np_flag} ${np} $<TARGET_FILE:pmpi_stress> ${args})
  set_tests_properties(${test} PROPERTIES LABELS "mpi;pmpi" TIMEOUT 300
    ENVIRONMENT "${VINE_MPI_TEST_ENV};${ARGN}")
endfunction()
vine_pmpi_stress(stress 1 1)
vine_pmpi_stress(stress 3 2)
vine_pmpi_stress(stress 5 3)
vine_pmpi_stress(stress_hosts 4 4 VINE_TOPOLOGY_FAKE_HOSTS=block:2)
vine_pmpi_stress(stress_thread 3 5 VINE_PROGRESS_THREAD=1)
vine_pmpi_stress(stress_shm_small 3 6 VINE_SHM_BYTES=4096)

# Numerical programs vine's authors did not write, with their own result
# checks, preloaded: ScaLAPACK's BLACS and LU testers, from Debian's
# scalapack-mpi-test, which scripts/deps.sh installs
# (tests/pmpi/run_apps.sh): under auto on 4 ranks,
# and with bine forced for bcast, reduce and allreduce on 5 (the BLACS
# tester needs 4 or more).  MPICH under the sanitizers (make test-mpich-asan)
# took 218 s (apps) and 452 s (apps_bine) alone.
set(vine_pmpi_apps_timeout 300)
if(VINE_SANITIZE AND vine_mpi_flavor STREQUAL "mpich")
  set(vine_pmpi_apps_timeout 900)
endif()
function(vine_pmpi_apps name np)
  set(test pmpi.${name}.np${np})
  set(algo)
  if(ARGN)
    set(algo --algo ${ARGN})
  endif()
  add_test(NAME ${test}
    COMMAND sh ${CMAKE_CURRENT_FUNCTION_LIST_DIR}/run_apps.sh
            --launcher ${VINE_MPIRUN} --np-flag ${vine_pmpi_np_flag} --flavor ${vine_mpi_flavor}
            --np ${np} --preload ${vine_pmpi_preload} ${algo}
            ${CMAKE_CURRENT_BINARY_DIR}/${test})
  set_tests_properties(${test} PROPERTIES LABELS "mpi;pmpi" TIMEOUT ${vine_pmpi_apps_timeout}
    ENVIRONMENT "${VINE_MPI_TEST_ENV}")
endfunction()
if(vine_pmpi_preload)
  vine_pmpi_apps(apps 4)
  vine_pmpi_apps(apps_bine 5 bine)
endif()

# Collectives called while a communicator or MPI ends (tests/pmpi/ending.c):
# from attribute delete callbacks run by MPI_Comm_free, one inside another,
# and by MPI_Finalize; linked, preloaded (in the ranks only, through env),
# and with VINE_VERBOSE, whose lines for such calls leave no record on the
# communicator.
add_executable(pmpi_ending_linked ${CMAKE_CURRENT_LIST_DIR}/ending.c)
target_link_libraries(pmpi_ending_linked PRIVATE vine-mpi MPI::MPI_C)
add_executable(pmpi_ending ${CMAKE_CURRENT_LIST_DIR}/ending.c)
target_link_libraries(pmpi_ending PRIVATE MPI::MPI_C)
# vine_pmpi_ending(name np [ENV var=value...] RUN command...)
function(vine_pmpi_ending name np)
  cmake_parse_arguments(ARG "" "" "ENV;RUN" ${ARGN})
  set(test pmpi.${name}.np${np})
  add_test(NAME ${test}
    COMMAND ${VINE_MPIRUN} ${VINE_MPIRUN_NP} ${np} ${MPIEXEC_PREFLAGS} ${ARG_RUN}
            ${MPIEXEC_POSTFLAGS})
  set_tests_properties(${test} PROPERTIES LABELS "mpi;pmpi" TIMEOUT 120
    ENVIRONMENT "${VINE_MPI_TEST_ENV};${ARG_ENV}")
endfunction()
vine_pmpi_ending(ending_linked 3 RUN $<TARGET_FILE:pmpi_ending_linked>)
vine_pmpi_ending(ending_linked 4 ENV VINE_VERBOSE=1 RUN $<TARGET_FILE:pmpi_ending_linked>)
if(vine_pmpi_preload)
  vine_pmpi_ending(ending_preload 3
    RUN env LD_PRELOAD=${vine_pmpi_preload} $<TARGET_FILE:pmpi_ending>)
endif()

# MPI's rules across communicators and calls (tests/pmpi/order.c): first
# nonblocking calls on two communicators in different orders, blocking
# collectives and blocking point-to-point calls while a peer waits for a
# request this rank started.  Linked, preloaded, and with the bcast and the
# allreduce forced to algorithms of many rounds.
add_executable(pmpi_order_linked ${CMAKE_CURRENT_LIST_DIR}/order.c)
target_link_libraries(pmpi_order_linked PRIVATE vine-mpi MPI::MPI_C)
add_executable(pmpi_order ${CMAKE_CURRENT_LIST_DIR}/order.c)
target_link_libraries(pmpi_order PRIVATE MPI::MPI_C)
vine_pmpi_ending(order_linked 4 RUN $<TARGET_FILE:pmpi_order_linked>)
vine_pmpi_ending(order_linked 5 RUN $<TARGET_FILE:pmpi_order_linked>)
vine_pmpi_ending(order_forced 4 ENV VINE_BCAST_ALGORITHM=binomial VINE_ALLREDUCE_ALGORITHM=ring
  RUN $<TARGET_FILE:pmpi_order_linked>)
if(vine_pmpi_preload)
  vine_pmpi_ending(order_preload 4
    RUN env LD_PRELOAD=${vine_pmpi_preload} $<TARGET_FILE:pmpi_order>)
endif()
