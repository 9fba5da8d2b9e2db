#!/bin/sh
# Installs the Debian packages vine needs to build and test, and nothing when
# they are all present already (then it is fast and needs no network).
#
# As root it runs apt-get itself; as another user it uses `sudo -n` when sudo
# works without a password, and otherwise prints the command to run and fails.
# Set VINE_DEPS_CHECK_ONLY=1 to report what is missing without installing it.
set -eu

# The one list of packages.  smpirun and smpicc come with libsimgrid-dev;
# openssh-client, which Open MPI's mpirun needs even on one host, comes with
# openmpi-bin.  MPICH (mpich, libmpich-dev) installs beside Open MPI as
# mpicc.mpich and mpiexec.mpich; Open MPI keeps the plain names, mpicc and
# mpirun, because Debian's alternatives rank it higher.  libhwloc-dev is
# optional (the levels inside the node): vine builds without it.
# scalapack-mpi-test (ScaLAPACK's testers for both MPI libraries, with their
# input files in scalapack-test-common) holds programs with their own result
# checks that the pmpi.apps tests run through libvine-mpi.
PACKAGES="build-essential cmake pkg-config libopenmpi-dev openmpi-bin libsimgrid-dev mpich libmpich-dev gnuplot-nox libglpk-dev libjansson-dev libhwloc-dev scalapack-mpi-test"

missing=""
for pkg in $PACKAGES; do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    case "$status" in
    *" installed") ;;
    *) missing="$missing $pkg" ;;
    esac
done

if [ -z "$missing" ]; then
    exit 0
fi
missing=${missing# }
echo "deps.sh: missing Debian packages: $missing"

if [ "${VINE_DEPS_CHECK_ONLY:-0}" = 1 ]; then
    exit 1
fi

if ! command -v apt-get >/dev/null 2>&1; then
    echo "deps.sh: no apt-get here; install the equivalents of: $missing" >&2
    exit 1
fi
if [ "$(id -u)" = 0 ]; then
    as_root=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    as_root="sudo -n"
else
    echo "deps.sh: not root and no password-less sudo; run this, then retry:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends $missing" >&2
    exit 1
fi

# --no-install-recommends keeps the install small; every package vine needs is
# named above or is a hard dependency of one named above.
$as_root env DEBIAN_FRONTEND=noninteractive apt-get update
# Word splitting of $missing is intended: it is a list of package names.
# shellcheck disable=SC2086
$as_root env DEBIAN_FRONTEND=noninteractive \
    apt-get install -y --no-install-recommends $missing
