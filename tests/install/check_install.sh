#!/bin/sh
# Installs a built vine into a fresh prefix, then builds a program outside the
# tree against it with `pkg-config --cflags --libs vine` and mpicc, and runs
# it on 2 ranks.  It shows that the installed header, library, pkg-config
# file and tools are complete and usable without the source or build tree.
#
# usage: check_install.sh BUILD_DIR WORK_DIR
set -eu

build=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
mpirun_sh="$here/../../scripts/mpirun.sh"

rm -rf "$work"
mkdir -p "$work"
prefix="$work/prefix"
cmake --install "$build" --prefix "$prefix" >"$work/install.log"

missing() {
    echo "check_install: $1 is missing from the install in $prefix" >&2
    exit 1
}
for f in include/vine.h include/vine/types.h bin/vine; do
    [ -f "$prefix/$f" ] || missing "$f"
done
pc=$(find "$prefix" -name vine.pc | head -n 1)
[ -n "$pc" ] || missing vine.pc
# vine.pc lies in LIBDIR/pkgconfig.
ls "$(dirname "$(dirname "$pc")")"/libvine.so* >/dev/null 2>&1 || missing libvine.so

# Nothing from the build tree may be on the search paths from here on.
PKG_CONFIG_PATH="$(dirname "$pc")"
export PKG_CONFIG_PATH
libdir=$(pkg-config --variable=libdir vine)
# pkg-config's output is a list of flags: splitting it into words is intended.
# shellcheck disable=SC2046
mpicc -std=c11 -Wall -Wextra -Werror -o "$work/hello_vine" "$here/hello_vine.c" \
    $(pkg-config --cflags --libs vine) -Wl,-rpath,"$libdir"

"$prefix/bin/vine" list >/dev/null
# The installed MPI tool must find the installed library through its RPATH.
if [ -x "$prefix/bin/vine-bench" ]; then
    sh "$mpirun_sh" -np 1 "$prefix/bin/vine-bench" --help >/dev/null
fi
sh "$mpirun_sh" -np 2 "$work/hello_vine"
