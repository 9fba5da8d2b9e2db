#!/bin/sh
# Runs COMMAND (an MPI launch of test_shm_space) with a /dev/shm of its own,
# SIZE large (tests/mpi/shm.cmake, docs/shm.md "Room for the segments"):
#
#   sh shm_space.sh SIZE -- COMMAND...
#
# The mount lives in a private mount namespace (unshare -m), so nothing else
# on the machine sees it; the launcher, its ranks and the MPI library's own
# shared memory all use it.  That needs the privilege to mount (root with
# CAP_SYS_ADMIN): without it the script says so and exits 77, a skip, before
# running anything.
set -eu
size=$1
shift
[ "$1" = "--" ] && shift
if ! command -v unshare >/dev/null 2>&1 ||
    ! unshare -m sh -c "mount -t tmpfs -o size=$size tmpfs /dev/shm" 2>/dev/null; then
    echo "shm_space.sh: cannot mount a tmpfs of $size on /dev/shm in a private mount namespace" \
        "(needs unshare and CAP_SYS_ADMIN): skipped" >&2
    exit 77
fi
exec unshare -m sh -c "mount -t tmpfs -o size=$size tmpfs /dev/shm && exec \"\$@\"" sh "$@"
