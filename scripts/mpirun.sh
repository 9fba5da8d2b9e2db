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
# - A launcher failure of Open MPI's own (below) is retried once.
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

# Open MPI 4.x's launcher now and then loses track of a process that has
# finished normally and fails the run with "mpirun has exited due to process
# rank N with PID 0 on node ... exiting improperly" (open-mpi/ompi#7833,
# #12607; seen about once in a thousand launches under load).  A real crash
# names the process's PID.  On exactly that message the command runs once
# more, and the second run's status decides.  stderr is copied as it comes.
log=$(mktemp "${TMPDIR:-/tmp}/vine-mpirun.XXXXXX")
trap 'rm -f "$log" "$log.rc"' EXIT
launch() {
    { { "${MPIRUN:-mpirun}" "$@"; echo $? >"$log.rc"; } 2>&1 1>&3 | tee "$log" >&2; } 3>&1
    return "$(cat "$log.rc")"
}
status=0
launch "$@" || status=$?
if [ "$status" != 0 ] && grep -q 'with PID 0 on' "$log" && grep -q 'exiting improperly' "$log"; then
    echo "mpirun.sh: Open MPI lost track of a finished process (open-mpi/ompi#7833): running once more" >&2
    status=0
    launch "$@" || status=$?
fi
exit "$status"
