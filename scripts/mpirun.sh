#!/bin/sh
# Runs mpirun with the settings vine's demo and tests need, in one place.
#
# - Open MPI refuses to start as root unless told twice; the permission is
#   given only when running as root, so other users see no change.
# - Open MPI refuses to start more ranks than cores (the tests run up to 8
#   ranks on 2-core machines) unless oversubscription is allowed.
# - Under AddressSanitizer, leak detection is turned off unless the caller
#   asked for it: Open MPI keeps memory until exit by design, and LeakSanitizer
#   would fail every rank on those blocks (many come from MPI components that
#   are unloaded by then, so a suppression list cannot name them).  Memory
#   errors are still reported and still fail the run; vine's own leaks are
#   caught by the MPI-free unit and verifier tests, which keep leak detection.
#
# Environment variables are used rather than command-line flags because other
# MPI implementations ignore them, where they would reject Open MPI's flags.
# MPIRUN names the launcher (default: mpirun on the PATH).
set -eu

if [ "$(id -u)" = 0 ]; then
    export OMPI_ALLOW_RUN_AS_ROOT=1
    export OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMPI_MCA_rmaps_base_oversubscribe="${OMPI_MCA_rmaps_base_oversubscribe:-1}"

case "${ASAN_OPTIONS:-}" in
*detect_leaks=*) ;;
"") export ASAN_OPTIONS=detect_leaks=0 ;;
*) export ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" ;;
esac

exec "${MPIRUN:-mpirun}" "$@"
