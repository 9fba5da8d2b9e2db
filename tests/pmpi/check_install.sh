#!/bin/sh
# Installs a built vine into a fresh prefix and uses the installed
# libvine-mpi.so both ways a user would, outside the build tree:
# tests/pmpi/app.c built with the MPI compiler alone and started with
# LD_PRELOAD=PREFIX/lib/libvine-mpi.so, and built with -lvine-mpi.  Each run
# goes through run_app.sh, which checks the results and that vine served the
# collectives.  The preloaded library must find the installed libvine.so
# beside it by its RUNPATH ($ORIGIN), with no LD_LIBRARY_PATH.
#
# usage: check_install.sh BUILD_DIR WORK_DIR MPICC FLAVOR LAUNCHER NP_FLAG
set -eu

build=$1
work=$2
mpicc=$3
flavor=$4
launcher=$5
np_flag=$6
here=$(cd "$(dirname "$0")" && pwd)

rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log"

so=$(find "$prefix" -name libvine-mpi.so | head -n 1)
if [ -z "$so" ]; then
    echo "check_install: libvine-mpi.so is missing from the install in $prefix" >&2
    exit 1
fi
lib=$(dirname "$so")
unset LD_LIBRARY_PATH
if ! ldd "$so" | grep -q "libvine\\.so\\.[0-9]* => $lib/"; then
    echo "check_install: $so does not find the libvine.so installed beside it:" >&2
    ldd "$so" >&2
    exit 1
fi

"$mpicc" -std=c11 -Wall -Wextra -Werror -o "$work/app" "$here/app.c"
"$mpicc" -std=c11 -Wall -Wextra -Werror -o "$work/app_linked" "$here/app.c" \
    -L"$lib" -lvine-mpi -Wl,-rpath,"$lib"

run() {
    sh "$here/run_app.sh" --launcher "$launcher" --np-flag "$np_flag" --flavor "$flavor" \
        --np 3 "$@"
}
run --preload "$so" -- "$work/app"
run -- "$work/app_linked"
