# MPI test tier (label mpi): every vine algorithm against the MPI library's own
# collective under mpirun on 1 to 8 ranks (oversubscribed on small machines).
# SimGrid builds register the smpi tier instead.
if(VINE_SMPI)
  return()
endif()

# The launcher (VINE_MPIRUN, VINE_MPIRUN_NP, VINE_MPI_TEST_ENV): Open MPI's
# through scripts/mpirun.sh, or MPICH's through scripts/mpirun-mpich.sh.
include(${CMAKE_CURRENT_LIST_DIR}/launcher.cmake)

add_library(vine_mpitest STATIC ${CMAKE_CURRENT_LIST_DIR}/mpitest.c ${CMAKE_CURRENT_LIST_DIR}/dtype.c)
target_link_libraries(vine_mpitest PUBLIC vine)

# Communicator sizes of a test that names none.  The sanitizer and MPICH
# stages, which repeat the plain build's tests for other faults, leave out 5,
# 6 and 8 (VINE_MPI_NP8, launcher.cmake; 7 covers odd non-powers of two, 3
# and 7 the fold of the butterflies), the sanitizer stage 7 too (3 is odd):
# that keeps make test under 30 minutes on 2 cores.
set(VINE_MPI_DEFAULT_NPS 1 2 3 4 5 6 7 8)
if(VINE_SANITIZE)
  set(VINE_MPI_DEFAULT_NPS 1 2 3 4)
elseif(vine_mpi_flavor STREQUAL "mpich")
  set(VINE_MPI_DEFAULT_NPS 1 2 3 4 7)
endif()

# vine_mpi_test(name [PROGRAM program] [NPS n...] [ENV var=value...]) registers
# mpi.<name>.np<n> running test_<program>.c (default: test_<name>.c) on n ranks.
function(vine_mpi_test name)
  cmake_parse_arguments(ARG "" "PROGRAM" "NPS;ENV" ${ARGN})
  if(NOT ARG_PROGRAM)
    set(ARG_PROGRAM ${name})
  endif()
  if(NOT ARG_NPS)
    set(ARG_NPS ${VINE_MPI_DEFAULT_NPS})
  endif()
  set(target mpitest_${ARG_PROGRAM})
  if(NOT TARGET ${target})
    add_executable(${target} ${CMAKE_CURRENT_LIST_DIR}/test_${ARG_PROGRAM}.c)
    target_link_libraries(${target} PRIVATE vine_mpitest)
  endif()
  foreach(np ${ARG_NPS})
    set(test mpi.${name}.np${np})
    add_test(NAME ${test}
      COMMAND ${VINE_MPIRUN} ${VINE_MPIRUN_NP} ${np} ${MPIEXEC_PREFLAGS}
              $<TARGET_FILE:${target}> ${MPIEXEC_POSTFLAGS})
    set_tests_properties(${test} PROPERTIES LABELS mpi TIMEOUT 300
      ENVIRONMENT "${VINE_MPI_TEST_ENV};${ARG_ENV};VINE_TEST_NP=${np}")
  endforeach()
endfunction()

foreach(coll bcast reduce allreduce allgather reduce_scatter_block reduce_scatter
    alltoall gather scatter barrier)
  vine_mpi_test(${coll})
endforeach()
# A blocking in-place alltoall larger than VINE_INPLACE_BYTES runs in rounds, the same
# bytes of every block each (coll_move.c), and a request goes to the MPI library's: 1 KiB
# makes dozens of rounds of the larger counts, which cut elements of every type apart.
vine_mpi_test(alltoall_rounds PROGRAM alltoall NPS 2 3 5 ENV VINE_INPLACE_BYTES=1k)
vine_mpi_test(alltoall_rounds_bad PROGRAM alltoall NPS 1 3
  ENV VINE_INPLACE_BYTES=0 VINE_TEST_INPLACE_BAD=1)
vine_mpi_test(alltoall_rounds_bad_unit PROGRAM alltoall NPS 2
  ENV VINE_INPLACE_BYTES=64kb VINE_TEST_INPLACE_BAD=1)
vine_mpi_test(errors NPS 1 2 3 4 7 8)
# MPI's progress rule inside the collectives: passive-target RMA to ranks
# waiting in every barrier and bcast algorithm (test_progress.c).
vine_mpi_test(progress NPS 2 3 4)
# Buffers at MPI_BOTTOM with absolute-address struct types (test_bottom.c).
vine_mpi_test(bottom NPS 1 2 3 4)
# More communicators than MPICH holds with vine's private copies: those
# vine cannot copy go to the MPI library (test_comm_many.c).  No node
# segments: 2,100 of them would take gigabytes of shared memory.
vine_mpi_test(comm_many NPS 2 3 ENV VINE_SHM=0)
# The irregular collectives and the scans (issue 20), every algorithm of
# each against the MPI library's own: one program for the seven.  The
# sanitizer stage leaves out 5 (3 is odd too); the MPICH stage runs 4 in
# place of 5 and 8: oversubscribed, MPICH takes about a minute at 8 ranks
# on 2 cores, where Open MPI takes 2 seconds.
set(vine_vcoll_nps 1 2 3 5 8)
if(VINE_SANITIZE)
  set(vine_vcoll_nps 1 2 3 8)
elseif(vine_mpi_flavor STREQUAL "mpich")
  set(vine_vcoll_nps 1 2 3 4)
endif()
vine_mpi_test(vcoll NPS ${vine_vcoll_nps})
# The shm algorithms of the v collectives (and auto) on blocks 200 times larger, with a
# region of 64 KiB: blocks beyond the eager slots' parts go through the regions in chunks
# that reuse their slots, and those that go as messages do (alltoallv's and alltoallw's
# from 256 KiB, 16 KiB on 2 ranks; gatherv's on 2 ranks from 8 KiB below 512 KiB).
vine_mpi_test(vcoll_shm_large PROGRAM vcoll NPS 2 3 5
  ENV VINE_TEST_V_SCALE=200 VINE_SHM_BYTES=64KiB VINE_TEST_ALGOS=shm,auto
      VINE_TEST_COLLS=allgatherv,alltoallv,alltoallw,gatherv,scatterv)

# Unknown names in VINE_<COLL>_ALGORITHM must make the collectives fail with
# MPI_ERR_ARG; known names must be obeyed.
set(VINE_ENV_BAD)
set(VINE_ENV_GOOD
  VINE_BCAST_ALGORITHM=linear VINE_REDUCE_ALGORITHM=rabenseifner
  VINE_ALLREDUCE_ALGORITHM=ring VINE_ALLGATHER_ALGORITHM=bruck
  VINE_REDUCE_SCATTER_ALGORITHM=pairwise VINE_REDUCE_SCATTER_BLOCK_ALGORITHM=recursive_doubling
  VINE_ALLTOALL_ALGORITHM=bruck VINE_GATHER_ALGORITHM=linear VINE_SCATTER_ALGORITHM=linear
  VINE_BARRIER_ALGORITHM=dissemination)
foreach(coll BCAST REDUCE ALLREDUCE ALLGATHER REDUCE_SCATTER REDUCE_SCATTER_BLOCK
    ALLTOALL GATHER SCATTER BARRIER)
  list(APPEND VINE_ENV_BAD VINE_${coll}_ALGORITHM=no_such_algorithm)
endforeach()
vine_mpi_test(env_unknown PROGRAM env NPS 1 3 4 ENV ${VINE_ENV_BAD})
vine_mpi_test(env_known PROGRAM env NPS 1 3 4 ENV ${VINE_ENV_GOOD})

# Large counts: the MPI_Count entry points, and (where the memory is there)
# byte sizes above INT_MAX; exit status 77 means the machine lacks the memory
# and is reported as a skip with the reason printed.  Not in the sanitizer
# build, whose shadow memory would double the need, nor against MPICH, where
# the 2 GiB messages took 70 s of the test stage (vine splits them alike for
# every MPI: the plain Open MPI build checks that); both run the small part.
if(NOT VINE_SANITIZE AND NOT vine_mpi_flavor STREQUAL "mpich")
  # An in-place alltoall of blocks above INT_MAX bytes (about 16 GiB for the two
  # ranks), never beside the other: each checks the memory it needs when it starts.
  vine_mpi_test(large NPS 2)
  vine_mpi_test(large_alltoall PROGRAM large NPS 2 ENV VINE_TEST_LARGE_ALLTOALL=1)
  set_tests_properties(mpi.large.np2 mpi.large_alltoall.np2 PROPERTIES SKIP_RETURN_CODE 77
    TIMEOUT 900 RESOURCE_LOCK vine_large_memory)
else()
  vine_mpi_test(large NPS 2 ENV VINE_TEST_LARGE_SMALL_ONLY=1)
endif()

# Repeated calls: the shortcut for a call that repeats the previous one.
vine_mpi_test(repeat NPS 1 2 3 4)

# The pipelined allreduce bine_large (vine_set_segment_size, VINE_SEGMENT_SIZE)
# and the executor's deferral of reductions past the next round's posting.
# The executor's state machine, nonblocking progress (groundwork of issue 19).
vine_mpi_test(exec_nb NPS 1 2 3 4 7)
# Nonblocking and persistent collectives (issue 19): every algorithm in both
# forms against the MPI library (nb); many outstanding on one and on three
# communicators, completed out of order, persistent requests started 1000
# times, blocking calls among outstanding ones, vine_progress (nb_mix; again
# with every collective's VINE_<COLL>_ALGORITHM=shm, nb_mix_shm); the request
# errors and arrays mixed with point-to-point requests (nb_err).
set(vine_nb_nps 1 2 3 4 7 ${VINE_MPI_NP8})
if(VINE_SANITIZE)
  set(vine_nb_nps 1 2 3 4)
endif()
vine_mpi_test(nb NPS ${vine_nb_nps})
vine_mpi_test(nb_mix NPS ${vine_nb_nps})
vine_mpi_test(nb_err NPS ${vine_nb_nps})
# More requests outstanding on one communicator than there are tags for
# them (test_nb_many.c): 16,400 nonblocking, completed in reverse, and as
# many persistent; 3 ranks, since on 2 the requests that shared a tag never
# took each other's messages.
vine_mpi_test(nb_many NPS 3)
# Collectives of different communicators in different orders on different
# ranks (test_nb_order.c): first calls nonblocking, which must not make the
# state, and blocking calls that must advance a request a peer waits for.
vine_mpi_test(nb_order NPS 1 2 3 4)
# The same under MPI_THREAD_MULTIPLE, where a blocking wait only tries the
# requests' lock, and with the progress thread, which advances them itself.
vine_mpi_test(nb_order_mt PROGRAM nb_order NPS 3 ENV VINE_TEST_THREAD_MULTIPLE=1)
vine_mpi_test(nb_order_thread PROGRAM nb_order NPS 3 ENV VINE_PROGRESS_THREAD=1)
# The nonblocking and persistent forms of the irregular collectives and the
# scans: every algorithm in the four forms against the MPI library, the seven
# outstanding at once, negative counts (nb_v).  MPICH runs it on 1-4 ranks:
# oversubscribed, it takes 37 s on 7 on 2 cores.
set(vine_nb_v_nps ${vine_nb_nps})
if(vine_mpi_flavor STREQUAL "mpich")
  set(vine_nb_v_nps 1 2 3 4)
endif()
vine_mpi_test(nb_v NPS ${vine_nb_v_nps})
# Persistent requests run on segments of their own, or on the communicator's
# node segment with VINE_PERSISTENT_SHM=1 (docs/api.md, "Order"): nb_mix_shm
# runs both ways, and nb_persistent_shm runs nb the second way;
# persistent_own starts persistent requests in different orders.
set(vine_nb_shm_env VINE_TEST_NB_ENV=shm VINE_TEST_NB_REPS=200)
foreach(coll BCAST REDUCE ALLREDUCE ALLGATHER REDUCE_SCATTER REDUCE_SCATTER_BLOCK
    ALLTOALL GATHER SCATTER BARRIER)
  list(APPEND vine_nb_shm_env VINE_${coll}_ALGORITHM=shm)
endforeach()
vine_mpi_test(nb_mix_shm PROGRAM nb_mix NPS 2 4 ENV ${vine_nb_shm_env} VINE_PERSISTENT_SHM=1)
vine_mpi_test(nb_mix_shm_own PROGRAM nb_mix NPS 2 4 ENV ${vine_nb_shm_env})
vine_mpi_test(nb_persistent_shm PROGRAM nb NPS 3 ENV VINE_PERSISTENT_SHM=1)
vine_mpi_test(persistent_own NPS 1 2 3 4)
# The same with the progress thread (MPI_THREAD_MULTIPLE, joined at MPI_Finalize).
vine_mpi_test(nb_mix_thread PROGRAM nb_mix NPS 2 4 ENV VINE_PROGRESS_THREAD=1)
vine_mpi_test(nb_thread PROGRAM nb NPS 3 ENV VINE_PROGRESS_THREAD=1)
vine_mpi_test(segment NPS 1 2 3 4 5 ${VINE_MPI_NP8})
vine_mpi_test(segment_env PROGRAM segment NPS 4 6 ENV VINE_SEGMENT_SIZE=1k)
# Malformed sizes: a sign, a unit that is not k/m/g, a size beyond size_t.
vine_mpi_test(segment_env_bad_sign PROGRAM segment NPS 2 ENV VINE_SEGMENT_SIZE=-1k VINE_TEST_SEG_BAD=1)
vine_mpi_test(segment_env_bad_unit PROGRAM segment NPS 3 ENV VINE_SEGMENT_SIZE=64kb VINE_TEST_SEG_BAD=1)
vine_mpi_test(segment_env_bad_big PROGRAM segment NPS 1
  ENV VINE_SEGMENT_SIZE=99999999999999g VINE_TEST_SEG_BAD=1)

# auto follows a tuning file (docs/tuning.md): one written by the test and
# loaded with vine_set_tuning_file, VINE_TUNING_FILE naming a file of the
# source tree, and one that cannot be read.
vine_mpi_test(tuning NPS 1 2 3 4)
vine_mpi_test(tuning_env PROGRAM tuning NPS 1 3 4
  ENV VINE_TEST_TUNING_MODE=env
      VINE_TUNING_FILE=${CMAKE_SOURCE_DIR}/tests/data/tuning/mpi-env.json)
vine_mpi_test(tuning_unusable PROGRAM tuning NPS 2
  ENV VINE_TEST_TUNING_MODE=unusable
      VINE_TUNING_FILE=${CMAKE_SOURCE_DIR}/tests/data/tuning/no-such-file.json)
