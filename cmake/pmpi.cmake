# libvine-mpi.so (target vine-mpi): MPI's collectives served by vine
# through the MPI profiling interface (src/pmpi/pmpi.c, docs/pmpi.md), for
# unmodified MPI programs, by LD_PRELOAD or by linking with -lvine-mpi;
# src/pmpi/fortran.c adds Open MPI's Fortran entry points (empty elsewhere).
#
# It links libvine.so rather than holding a copy of vine: a program that
# calls vine_*() as well as MPI_*() then has one vine, one schedule cache
# and one set of algorithm choices.  RUNPATH $ORIGIN finds libvine.so beside
# it in the build tree (build/lib) and in an install (prefix/lib), so that
# LD_PRELOAD of the library needs no LD_LIBRARY_PATH.
#
# Not in the SimGrid build: smpicc links programs against SimGrid's own MPI
# symbols, which a second definition of MPI_Bcast and the others would clash
# with, and SMPI has no PMPI layer to pass calls on to.
if(VINE_SMPI)
  return()
endif()

add_library(vine-mpi SHARED ${PROJECT_SOURCE_DIR}/src/pmpi/pmpi.c
  ${PROJECT_SOURCE_DIR}/src/pmpi/fortran.c)
# vine.h only: vine's internal headers stay out of the profiling layer.
target_include_directories(vine-mpi PRIVATE ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(vine-mpi PRIVATE vine vine_mpi_dep)
set_target_properties(vine-mpi PROPERTIES
  VERSION ${PROJECT_VERSION} SOVERSION ${PROJECT_VERSION_MAJOR}
  LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib
  BUILD_RPATH "$ORIGIN"
  INSTALL_RPATH "$ORIGIN")

install(TARGETS vine-mpi LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
