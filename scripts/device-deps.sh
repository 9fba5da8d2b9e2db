#!/bin/sh
# Packs the libraries vine links that a machine without a package registry
# may lack (GLPK and jansson, with what libglpk needs at run time, and the
# optional hwloc with libudev) into build-devdeps/, from Debian 12's
# packages, so that the folder can be
# carried to such a machine and vine built there against it:
#
#   sh scripts/device-deps.sh          # here, where apt-get can download
#   ... carry build-devdeps, then there:
#   . scripts/device-env.sh            # sets CPATH, LIBRARY_PATH, LD_LIBRARY_PATH
#
# Nothing is installed: the packages are downloaded and unpacked only.
# build-devdeps/lib holds libglpk, libjansson, libhwloc, SuiteSparse's AMD
# and COLAMD and libltdl; build-devdeps/lib-fallback holds libgmp, zlib and
# libudev, which most systems bring along and which device-env.sh adds only
# when the machine has none of its own.  About 3 MiB in all.
set -eu
cd "$(dirname "$0")/.."
OUT=${1:-build-devdeps}
PKGS="libglpk-dev libglpk40 libjansson-dev libjansson4 libamd2 libcolamd2 \
libsuitesparseconfig5 libltdl7 libgmp10 zlib1g libhwloc-dev libhwloc15 libudev1"

if ! command -v apt-get >/dev/null || ! command -v dpkg-deb >/dev/null; then
    echo "device-deps.sh: needs apt-get and dpkg-deb (Debian)" >&2
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chmod 755 "$tmp" # apt-get downloads as user _apt
# shellcheck disable=SC2086 # PKGS is a list
(cd "$tmp" && apt-get download $PKGS >/dev/null) ||
    { echo "device-deps.sh: apt-get download failed (run 'apt-get update' first?)" >&2; exit 1; }
for deb in "$tmp"/*.deb; do
    dpkg-deb -x "$deb" "$tmp/root"
done

rm -rf "$OUT"
mkdir -p "$OUT/include" "$OUT/lib" "$OUT/lib-fallback"
cp "$tmp/root/usr/include/glpk.h" "$tmp/root/usr/include/jansson.h" \
    "$tmp/root/usr/include/jansson_config.h" "$tmp/root/usr/include/hwloc.h" "$OUT/include/"
cp -R "$tmp/root/usr/include/hwloc" "$OUT/include/"
# Shared objects from both library folders; -P keeps the links (libglpk.so ->
# libglpk.so.40 -> libglpk.so.40.3.1).
for dir in "$tmp/root/usr/lib/x86_64-linux-gnu" "$tmp/root/lib/x86_64-linux-gnu"; do
    [ -d "$dir" ] || continue
    for f in "$dir"/*.so*; do
        [ -e "$f" ] || continue
        case $(basename "$f") in
        libgmp* | libz.* | libudev*) cp -P "$f" "$OUT/lib-fallback/" ;;
        *) cp -P "$f" "$OUT/lib/" ;;
        esac
    done
done
for need in libglpk.so libjansson.so libamd.so.2 libcolamd.so.2 libltdl.so.7 libhwloc.so; do
    [ -e "$OUT/lib/$need" ] || { echo "device-deps.sh: $need missing from the packages" >&2; exit 1; }
done
echo "device-deps.sh: wrote $OUT ($(du -sh "$OUT" | cut -f1))"
