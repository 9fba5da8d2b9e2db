# The launcher of the MPI tests: VINE_MPIRUN, VINE_MPIRUN_NP and
# VINE_MPI_TEST_ENV, for every fragment of tests/mpi that registers tests.
# Those fragments include this file before they use the variables, since the
# fragment glob of tests/CMakeLists.txt reaches it only in its sorted turn;
# the guard makes the later inclusions do nothing.
include_guard(GLOBAL)
if(VINE_SMPI)
  return()
endif()

# VINE_MPI_FLAVOR says which MPI starts the tests.  Empty means: MPICH when
# the library FindMPI found is libmpich or its launcher is MPICH's hydra
# (mpiexec.mpich is a link to mpiexec.hydra on Debian), Open MPI otherwise.
set(VINE_MPI_FLAVOR "" CACHE STRING "MPI of the test launcher: openmpi, mpich, or empty to detect")
set_property(CACHE VINE_MPI_FLAVOR PROPERTY STRINGS "" openmpi mpich)
get_filename_component(vine_mpiexec_real "${MPIEXEC_EXECUTABLE}" REALPATH)
get_filename_component(vine_mpiexec_name "${vine_mpiexec_real}" NAME)
set(vine_mpi_flavor "${VINE_MPI_FLAVOR}")
if(NOT vine_mpi_flavor)
  if("${MPI_C_LIB_NAMES}" MATCHES "mpich" OR vine_mpiexec_name MATCHES "hydra")
    set(vine_mpi_flavor mpich)
  else()
    set(vine_mpi_flavor openmpi)
  endif()
endif()

# VINE_MPI_NP8: 8 in the plain build, empty in the stages that repeat its
# tests for other faults (the sanitizers, MPICH).  Eight ranks on two cores
# are the slowest runs there (about half of each stage's MPI time), and the
# sizes below them (3 and 7 odd, 4 a power of two) run the same code paths;
# the plain build keeps 8 for the three-step butterflies.  Fragments put it
# in their lists of communicator sizes.
if(VINE_SANITIZE OR vine_mpi_flavor STREQUAL "mpich")
  set(VINE_MPI_NP8 "")
else()
  set(VINE_MPI_NP8 8)
endif()

if(vine_mpi_flavor STREQUAL "mpich")
  # Given only MPICH's compiler wrapper, FindMPI takes the first mpiexec on
  # the PATH, which Debian's alternatives point at Open MPI's; ranks started
  # by another MPI's launcher each run alone, as singletons, so stop here.
  if(vine_mpiexec_name MATCHES "orterun|prterun|openmpi")
    message(FATAL_ERROR "vine: MPICH build, but the tests' launcher ${MPIEXEC_EXECUTABLE} "
      "is Open MPI's: add -DMPIEXEC_EXECUTABLE=/usr/bin/mpiexec.mpich")
  endif()
  # scripts/mpirun-mpich.sh sets no Open MPI variable: hydra runs as root
  # and oversubscribed as it is.  MPIRUN makes it start exactly the launcher
  # that FindMPI found.
  set(VINE_MPIRUN ${CMAKE_SOURCE_DIR}/scripts/mpirun-mpich.sh)
  set(VINE_MPIRUN_NP -np)
  set(VINE_MPI_TEST_ENV MPIRUN=${MPIEXEC_EXECUTABLE})
  # MPICH polls without yielding, so with more ranks than cores each message
  # waits for a time slice; scripts/mpich_yield.c makes idle ranks yield.  Not
  # under the sanitizers, whose runtime must be the first library loaded.
  if(NOT VINE_SANITIZE)
    add_library(vine_mpich_yield MODULE ${CMAKE_SOURCE_DIR}/scripts/mpich_yield.c)
    target_link_libraries(vine_mpich_yield PRIVATE ${CMAKE_DL_LIBS})
    list(APPEND VINE_MPI_TEST_ENV LD_PRELOAD=$<TARGET_FILE:vine_mpich_yield>)
  endif()
  message(STATUS "vine: MPI tests start through ${VINE_MPIRUN} with ${MPIEXEC_EXECUTABLE}")
  return()
endif()

# scripts/mpirun.sh sets what Open MPI needs to run as root and oversubscribed;
# the environment below does the same for a bare mpirun.
if(EXISTS ${CMAKE_SOURCE_DIR}/scripts/mpirun.sh)
  set(VINE_MPIRUN ${CMAKE_SOURCE_DIR}/scripts/mpirun.sh)
  set(VINE_MPIRUN_NP -np)
else()
  set(VINE_MPIRUN ${MPIEXEC_EXECUTABLE})
  set(VINE_MPIRUN_NP ${MPIEXEC_NUMPROC_FLAG})
endif()
set(VINE_MPI_TEST_ENV
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1)
