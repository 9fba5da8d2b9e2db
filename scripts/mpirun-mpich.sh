#!/bin/sh
# Runs MPICH's launcher with the settings vine's demo and tests need: the
# counterpart of scripts/mpirun.sh for a vine built against MPICH.
#
# - MPICH's launcher (hydra) starts as root and starts more ranks than cores
#   without being asked, so nothing is set for either, and none of Open MPI's
#   variables is.
# - Under AddressSanitizer, leak detection is turned off unless the caller
#   asked for it, for the reason given in scripts/mpirun.sh: the MPI library
#   keeps memory until exit.  vine's own leaks are caught by the MPI-free
#   unit and verifier tests.
#
# MPIRUN names the launcher (default: mpiexec.mpich on the PATH, which is
# where Debian's mpich package puts it beside Open MPI's mpirun).
set -eu

case "${ASAN_OPTIONS:-}" in
*detect_leaks=*) ;;
"") export ASAN_OPTIONS=detect_leaks=0 ;;
*) export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" ;;
esac

exec "${MPIRUN:-mpiexec.mpich}" "$@"
